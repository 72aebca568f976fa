/** Which settings a post may send on this connection, and how they map onto TikTok's `post_info`. */
import type { PublishContext, PublishPost } from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import type { MediaRef } from '../../../core/domain/media';
import { DEFAULT_COVER_TIMESTAMP_MS } from './settings';

export function isMediaRef(value: unknown): value is MediaRef {
  return isObject(value) && typeof value.id === 'string' && typeof value.contentType === 'string' && typeof value.size === 'number';
}

export interface Plan {
  draft: boolean;
  /** The privacy level asked for, after the capability check. */
  privacy?: string;
  /** `post_info` fields of a direct post, besides title and privacy_level. */
  postInfo: Json;
  warnings: string[];
}

const capabilityWarning = (field: string, capability: string) =>
  `${field} was ignored: this TikTok connection lacks the "${capability}" capability (reconnect the account to get it).`;

/** Direct-post metadata a draft cannot carry: TikTok's inbox flow takes none of it. */
const DRAFT_DROPS: Record<'video' | 'photo', readonly string[]> = {
  video: ['privacy_level', 'disable_comment', 'disable_duet', 'disable_stitch', 'tiktok_cover_image_url', 'tiktok_cover_image',
    'tiktok_music_id', 'tiktok_location_id', 'brand_content_toggle', 'brand_organic_toggle', 'tiktok_is_ai_generated'],
  photo: ['privacy_level', 'disable_comment', 'tiktok_music_id', 'tiktok_location_id', 'brand_content_toggle', 'brand_organic_toggle',
    'tiktok_is_ai_generated'],
};

export function planPost(post: PublishPost, caps: ReadonlySet<string>, media: PublishContext['media']): Plan {
  const s = post.settings;
  const warnings: string[] = [];
  const draft = s.post_mode === 'MEDIA_UPLOAD' || s.tiktok_upload_to_draft === true;
  const video = post.kind === 'video';
  const set = (name: string) => s[name] !== undefined && s[name] !== null && s[name] !== false;
  const coverAt = typeof s.cover_timestamp === 'number' ? s.cover_timestamp : DEFAULT_COVER_TIMESTAMP_MS;

  if (draft) {
    const dropped = [
      // inbox/video/init takes no caption; photo drafts keep title and description.
      ...(video && post.title.trim() ? ['title'] : []),
      ...DRAFT_DROPS[video ? 'video' : 'photo'].filter(set),
      ...(video && coverAt !== DEFAULT_COVER_TIMESTAMP_MS ? ['cover_timestamp'] : []),
    ];
    if (dropped.length) {
      warnings.push(`TikTok drafts carry no post settings: ${dropped.join(', ')} not sent; the user completes the post in the TikTok app.`);
    }
    return { draft, postInfo: {}, warnings };
  }

  let privacy = typeof s.privacy_level === 'string' ? s.privacy_level : undefined;
  const privacyCapability = video ? 'video_privacy' : 'photo_privacy';
  if (privacy && !caps.has(privacyCapability)) {
    warnings.push(capabilityWarning('privacy_level', privacyCapability));
    privacy = undefined;
  }

  const postInfo: Json = { disable_comment: s.disable_comment === true };
  if (video) {
    postInfo.disable_duet = s.disable_duet === true;
    postInfo.disable_stitch = s.disable_stitch === true;
  } else {
    postInfo.auto_add_music = s.auto_add_music === true;
  }
  postInfo.brand_content_toggle = s.brand_content_toggle === true;
  postInfo.brand_organic_toggle = s.brand_organic_toggle === true;
  postInfo.is_aigc = s.tiktok_is_ai_generated === true;

  if (video) {
    const coverUrl = typeof s.tiktok_cover_image_url === 'string' ? s.tiktok_cover_image_url : undefined;
    const coverFile = isMediaRef(s.tiktok_cover_image) ? s.tiktok_cover_image : undefined;
    if (coverUrl || coverFile) {
      if (!caps.has('cover_image')) {
        warnings.push(capabilityWarning(coverUrl ? 'tiktok_cover_image_url' : 'tiktok_cover_image', 'cover_image'));
      } else {
        if (coverUrl && coverFile) warnings.push('tiktok_cover_image was ignored: tiktok_cover_image_url wins.');
        postInfo.cover_image_url = coverUrl ?? media.publicUrl(coverFile!.id);
      }
    }
    if (postInfo.cover_image_url !== undefined) {
      if (coverAt !== DEFAULT_COVER_TIMESTAMP_MS) warnings.push('cover_timestamp was ignored: a cover image wins.');
    } else if (caps.has('cover_timestamp')) {
      postInfo.video_cover_timestamp_ms = coverAt;
    } else if (coverAt !== DEFAULT_COVER_TIMESTAMP_MS) {
      // The default is not something the caller asked for, so only an explicit value is reported.
      warnings.push(capabilityWarning('cover_timestamp', 'cover_timestamp'));
    }
  }

  const trackFields = ['tiktok_music_volume', 'tiktok_music_start', 'tiktok_music_end', 'tiktok_original_sound_volume'].filter(set);
  if (typeof s.tiktok_music_id === 'string') {
    if (!caps.has('music')) {
      warnings.push(capabilityWarning(['tiktok_music_id', ...trackFields].join(', '), 'music'));
    } else {
      postInfo.music_id = s.tiktok_music_id;
      if (video) {
        postInfo.music_volume = typeof s.tiktok_music_volume === 'number' ? s.tiktok_music_volume : 50;
        postInfo.original_sound_volume = typeof s.tiktok_original_sound_volume === 'number' ? s.tiktok_original_sound_volume : 50;
        if (typeof s.tiktok_music_start === 'number') postInfo.music_start_ms = s.tiktok_music_start;
        if (typeof s.tiktok_music_end === 'number') postInfo.music_end_ms = s.tiktok_music_end;
      }
    }
  } else if (trackFields.length) {
    warnings.push(`${trackFields.join(', ')} ignored: they apply only with tiktok_music_id.`);
  }

  if (typeof s.tiktok_location_id === 'string') {
    if (!caps.has('location')) warnings.push(capabilityWarning('tiktok_location_id, tiktok_location_name', 'location'));
    else Object.assign(postInfo, { location_id: s.tiktok_location_id, location_name: s.tiktok_location_name });
  } else if (typeof s.tiktok_location_name === 'string') {
    warnings.push('tiktok_location_name was ignored: it applies only with tiktok_location_id.');
  }

  return { draft, privacy, postInfo, warnings };
}

