/** Facebook's request fields, the checks intake runs on them, and how the publisher reads them. */
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { isObject, str, type Json } from '../kit/http';

export const facebookSettings: SettingsSchema = {
  fields: [
    { name: 'facebook_page_id', type: 'string', endpoints: ['video', 'photo', 'text'],
      description: 'Page to post to; auto-selected when exactly one page is connected; a page pinned to the profile takes precedence.' },
    { name: 'facebook_title', type: 'string', endpoints: ['video', 'photo', 'text'],
      description: 'Overrides title (video title; photo caption; text message). Ignored for STORIES.' },
    { name: 'facebook_description', type: 'string', endpoints: ['video'], description: 'Video description. Ignored for STORIES.' },
    { name: 'facebook_media_type', type: 'string', endpoints: ['video', 'photo'], oneOf: ['POSTS', 'REELS', 'STORIES'], default: 'POSTS',
      description: 'POSTS (feed), STORIES (page story), REELS (video only).' },
    { name: 'video_state', type: 'string', endpoints: ['video'], oneOf: ['DRAFT', 'PUBLISHED'], default: 'PUBLISHED' },
    { name: 'facebook_alt_text', type: 'string_list', endpoints: ['photo'], separator: '||',
      description: 'Alt text per photo, in order: repeated field, JSON array, or text separated by "||".' },
    { name: 'facebook_place_id', type: 'string', endpoints: ['photo'] },
    { name: 'facebook_targeting', type: 'json', endpoints: ['photo'], description: 'Graph `targeting` object.' },
    { name: 'facebook_feed_targeting', type: 'json', endpoints: ['photo'], description: 'Graph `feed_targeting` object.' },
    { name: 'facebook_no_story', type: 'boolean', endpoints: ['photo'], default: false, description: 'Add the photo without a feed story.' },
    { name: 'facebook_secret', type: 'boolean', endpoints: ['photo'], default: false, description: 'Upload the photos unpublished.' },
    // Herald extension (the spec's text endpoint shape is not shown): the `link` of a /feed post.
    { name: 'facebook_link', type: 'url', endpoints: ['text'], description: 'Link attached to a text post.' },
  ],
  check(values, { endpoint, mediaCount }) {
    const violations: SettingViolation[] = [];
    const mediaType = values.facebook_media_type;
    if (endpoint === 'photo' && mediaType === 'REELS') {
      violations.push({ field: 'facebook_media_type', message: 'facebook_media_type REELS takes a video; photos are POSTS or STORIES.' });
    }
    if (endpoint === 'photo' && mediaType === 'STORIES' && mediaCount > 1) {
      violations.push({ field: 'facebook_media_type', message: `A Facebook photo story takes one photo; ${mediaCount} were sent.` });
    }
    if (mediaType === 'STORIES' && values.facebook_secret === true) {
      violations.push({ field: 'facebook_secret', message: 'facebook_secret cannot be combined with facebook_media_type STORIES.' });
    }
    if (endpoint === 'video' && mediaType === 'STORIES' && values.video_state === 'DRAFT') {
      violations.push({ field: 'video_state', message: 'video_state DRAFT cannot be combined with facebook_media_type STORIES.' });
    }
    const alt = values.facebook_alt_text;
    if (Array.isArray(alt) && alt.length > mediaCount) {
      violations.push({ field: 'facebook_alt_text', message: `facebook_alt_text has ${alt.length} entries for ${mediaCount} photos.` });
    }
    for (const field of ['facebook_targeting', 'facebook_feed_targeting']) {
      if (values[field] !== undefined && !isObject(values[field])) violations.push({ field, message: `${field} must be a JSON object.` });
    }
    return violations;
  },
};

export interface FacebookSettings {
  pageId?: string;
  title?: string;
  description?: string;
  mediaType: 'POSTS' | 'REELS' | 'STORIES';
  draft: boolean;
  altText: string[];
  placeId?: string;
  targeting?: Json;
  feedTargeting?: Json;
  noStory: boolean;
  secret: boolean;
  link?: string;
}

/** The resolved settings, read defensively: the engine normally hands them typed and defaulted. */
export function readSettings(s: Record<string, unknown>): FacebookSettings {
  const mediaType = s.facebook_media_type === 'STORIES' || s.facebook_media_type === 'REELS' ? s.facebook_media_type : 'POSTS';
  return {
    pageId: str(s.facebook_page_id),
    title: str(s.facebook_title),
    description: str(s.facebook_description),
    mediaType,
    draft: s.video_state === 'DRAFT',
    altText: Array.isArray(s.facebook_alt_text) ? s.facebook_alt_text.map(String) : str(s.facebook_alt_text) ? [String(s.facebook_alt_text)] : [],
    placeId: str(s.facebook_place_id),
    targeting: isObject(s.facebook_targeting) ? s.facebook_targeting : undefined,
    feedTargeting: isObject(s.facebook_feed_targeting) ? s.facebook_feed_targeting : undefined,
    noStory: s.facebook_no_story === true,
    secret: s.facebook_secret === true,
    link: str(s.facebook_link),
  };
}

