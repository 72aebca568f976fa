/** Instagram's request fields and the checks intake runs on them. */
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { isObject } from '../kit/http';
import { MAX_ALT_TEXT, MAX_CAROUSEL } from './limits';

export const SHARE_MODES = ['CUSTOM', 'TRIAL_REELS_SHARE_TO_FOLLOWERS_IF_LIKED', 'TRIAL_REELS_DONT_SHARE_TO_FOLLOWERS'] as const;

type UserTag = { username: string; x?: number; y?: number };

/**
 * `user_tags` is one request field with two shapes (spec): on photos a JSON array of
 * {username, x, y}; on video a comma-separated list of usernames. The settings framework types a
 * field once for all endpoints, so it arrives as text and is read here for the endpoint at hand.
 */
export function parseUserTags(raw: unknown, endpoint: MediaKind): { tags: UserTag[]; error?: string } {
  if (raw === undefined) return { tags: [] };
  let items: unknown[];
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (Array.isArray(raw)) items = raw;
  else if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (!Array.isArray(parsed)) return { tags: [], error: 'user_tags must be a JSON array' };
      items = parsed;
    } catch {
      return { tags: [], error: 'user_tags is not valid JSON' };
    }
  } else if (endpoint === 'photo' && text !== '') {
    return { tags: [], error: 'user_tags on photos must be a JSON array of {username, x, y}' };
  } else items = text.split(',');

  const tags: UserTag[] = [];
  for (const item of items) {
    if (typeof item === 'string') {
      const username = item.trim().replace(/^@/, '');
      if (username) tags.push({ username });
      continue;
    }
    if (!isObject(item) || typeof item.username !== 'string' || !item.username.trim()) {
      return { tags: [], error: 'each user_tags entry needs a username' };
    }
    const tag: UserTag = { username: item.username.trim().replace(/^@/, '') };
    for (const axis of ['x', 'y'] as const) {
      if (item[axis] === undefined) continue;
      const n = Number(item[axis]);
      if (!Number.isFinite(n) || n < 0 || n > 1) return { tags: [], error: `user_tags ${axis} must be a number from 0.0 to 1.0` };
      tag[axis] = n;
    }
    tags.push(tag);
  }
  if (tags.length > 20) return { tags: [], error: 'user_tags takes at most 20 people' };
  return { tags };
}

function checkSettings(values: Record<string, unknown>, ctx: { endpoint: MediaKind; mediaCount: number }): SettingViolation[] {
  const violations: SettingViolation[] = [];
  const mediaType = values.media_type as string | undefined;
  if (ctx.endpoint === 'video' && mediaType === 'IMAGE') {
    violations.push({ field: 'media_type', message: 'media_type on the video endpoint is REELS or STORIES' });
  }
  if (ctx.endpoint === 'photo' && mediaType === 'REELS') {
    violations.push({ field: 'media_type', message: 'media_type on the photo endpoint is IMAGE or STORIES' });
  }
  if (mediaType === 'STORIES' && ctx.mediaCount > 1) {
    violations.push({ field: 'media_type', message: `an Instagram story takes one file; this request has ${ctx.mediaCount}` });
  }
  if (ctx.endpoint === 'photo' && ctx.mediaCount > MAX_CAROUSEL) {
    violations.push({ field: 'photos', message: `an Instagram carousel takes at most ${MAX_CAROUSEL} items; this request has ${ctx.mediaCount}` });
  }
  const shareMode = values.share_mode as string | undefined;
  if (shareMode && shareMode !== 'CUSTOM') {
    if (Array.isArray(values.collaborators) && values.collaborators.length) {
      violations.push({ field: 'share_mode', message: 'trial reels cannot have collaborators' });
    }
    if (mediaType === 'STORIES') violations.push({ field: 'share_mode', message: 'trial reels are reels: share_mode needs media_type REELS' });
  }
  const tags = parseUserTags(values.user_tags, ctx.endpoint);
  if (tags.error) violations.push({ field: 'user_tags', message: tags.error });
  const alt = values.instagram_alt_text as string[] | undefined;
  if (alt) {
    const long = alt.findIndex((a) => [...a].length > MAX_ALT_TEXT);
    if (long >= 0) violations.push({ field: 'instagram_alt_text', message: `instagram_alt_text item ${long + 1} is longer than ${MAX_ALT_TEXT} characters` });
    if (alt.length > ctx.mediaCount) {
      violations.push({ field: 'instagram_alt_text', message: `instagram_alt_text has ${alt.length} items for ${ctx.mediaCount} files` });
    }
  }
  return violations;
}

export const instagramSettings: SettingsSchema = {
  fields: [
    { name: 'media_type', type: 'string', endpoints: ['video', 'photo'], oneOf: ['REELS', 'STORIES', 'IMAGE'],
      description: 'Video: REELS (default) or STORIES. Photos: IMAGE (default; several files make a carousel) or STORIES.' },
    { name: 'share_mode', type: 'string', endpoints: ['video'], oneOf: SHARE_MODES, default: 'CUSTOM',
      description: 'Trial reels are shown to non-followers first (public account, 1000+ followers, no collaborators).' },
    { name: 'share_to_feed', type: 'boolean', endpoints: ['video'], default: true, description: 'Regular reels only.' },
    { name: 'collaborators', type: 'string_list', endpoints: ['video', 'photo'], maxLength: 3, description: 'Usernames; not on stories.' },
    { name: 'cover_url', type: 'url', endpoints: ['video'], description: 'Reel cover (JPEG); wins over cover_image.' },
    { name: 'cover_image', type: 'file', endpoints: ['video'], description: 'Reel cover file (JPEG, max 8 MB).' },
    { name: 'audio_name', type: 'string', endpoints: ['video'], description: 'Reels only; renames the original audio.' },
    { name: 'user_tags', type: 'string', endpoints: ['video', 'photo'],
      description: 'Photos: JSON array of {username, x, y} (x, y 0.0-1.0; entries without coordinates are dropped). Video: comma-separated usernames.' },
    { name: 'location_id', type: 'string', endpoints: ['video', 'photo'], description: 'Numeric location (Page) id; not on stories.' },
    { name: 'thumb_offset', type: 'integer', endpoints: ['video'], min: 0, description: 'Milliseconds into the video for the reel thumbnail.' },
    { name: 'is_ai_generated', type: 'boolean', endpoints: ['video', 'photo'], default: false, description: 'AI info label; cannot be changed later.' },
    { name: 'instagram_alt_text', type: 'string_list', endpoints: ['photo'], separator: '||',
      description: `Alt text per image, in file order (JSON array or "||"-separated); max ${MAX_ALT_TEXT} characters each.` },
  ],
  check: checkSettings,
};

