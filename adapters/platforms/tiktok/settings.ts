/** TikTok's per-post fields (spec "TikTok fields"), per endpoint, and the checks intake runs on them. */
import type { SettingField, SettingsSchema, SettingViolation } from '../../../core/domain/settings';

export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;
export const PHOTO_DESCRIPTION_MAX = 4000;
export const DEFAULT_COVER_TIMESTAMP_MS = 1000;

const VP: SettingField['endpoints'] = ['video', 'photo'];

export const tiktokSettings: SettingsSchema = {
  fields: [
    { name: 'privacy_level', type: 'string', endpoints: VP, oneOf: TIKTOK_PRIVACY_LEVELS,
      description: 'Allowed set is per account. Omitted: the account default on video, PUBLIC_TO_EVERYONE on photos.' },
    { name: 'post_mode', type: 'string', endpoints: VP, oneOf: ['DIRECT_POST', 'MEDIA_UPLOAD'],
      description: 'DIRECT_POST when omitted; MEDIA_UPLOAD sends a draft to the TikTok inbox.' },
    { name: 'tiktok_upload_to_draft', aliases: ['upload_to_draft'], type: 'boolean', endpoints: VP, default: false,
      description: 'true is post_mode=MEDIA_UPLOAD.' },
    { name: 'disable_inbox_fallback', type: 'boolean', endpoints: VP, default: false },
    { name: 'disable_comment', type: 'boolean', endpoints: VP, default: false },
    { name: 'disable_duet', type: 'boolean', endpoints: ['video'], default: false },
    { name: 'disable_stitch', type: 'boolean', endpoints: ['video'], default: false },
    { name: 'cover_timestamp', type: 'integer', endpoints: ['video'], min: 0, default: DEFAULT_COVER_TIMESTAMP_MS,
      description: 'Milliseconds into the video.' },
    { name: 'tiktok_cover_image_url', type: 'url', endpoints: ['video'],
      description: 'JPG/WebP/PNG, max 20 MB; wins over cover_timestamp and tiktok_cover_image.' },
    { name: 'tiktok_cover_image', type: 'file', endpoints: ['video'] },
    { name: 'tiktok_music_id', type: 'string', endpoints: VP },
    { name: 'tiktok_music_volume', type: 'integer', endpoints: ['video'], min: 0, max: 100, description: '50 when a track is set.' },
    { name: 'tiktok_music_start', type: 'integer', endpoints: ['video'], min: 0, description: 'Milliseconds into the track.' },
    { name: 'tiktok_music_end', type: 'integer', endpoints: ['video'], min: 0, description: 'Milliseconds into the track.' },
    { name: 'tiktok_original_sound_volume', type: 'integer', endpoints: ['video'], min: 0, max: 100, description: '50 when music is present.' },
    { name: 'tiktok_location_id', type: 'string', endpoints: VP },
    { name: 'tiktok_location_name', type: 'string', endpoints: VP },
    { name: 'brand_content_toggle', type: 'boolean', endpoints: VP, default: false },
    { name: 'brand_organic_toggle', type: 'boolean', endpoints: VP, default: false },
    // The platform-specific spelling wins over the cross-network is_ai_generated.
    { name: 'tiktok_is_ai_generated', aliases: ['is_aigc', 'is_ai_generated'], type: 'boolean', endpoints: VP, default: false },
    { name: 'auto_add_music', type: 'boolean', endpoints: ['photo'], default: false },
    { name: 'photo_cover_index', type: 'integer', endpoints: ['photo'], min: 0, default: 0, description: '0-based.' },
    { name: 'tiktok_description', aliases: ['description'], type: 'string', endpoints: ['photo'], maxLength: PHOTO_DESCRIPTION_MAX },
  ],
  check(values, ctx) {
    const violations: SettingViolation[] = [];
    if (values.tiktok_location_id !== undefined && values.tiktok_location_name === undefined) {
      violations.push({ field: 'tiktok_location_name', message: 'tiktok_location_name is required when tiktok_location_id is sent.' });
    }
    if (values.post_mode === 'DIRECT_POST' && values.tiktok_upload_to_draft === true) {
      violations.push({ field: 'tiktok_upload_to_draft', message: 'tiktok_upload_to_draft=true asks for a draft (MEDIA_UPLOAD) but post_mode is DIRECT_POST: send one of them.' });
    }
    const start = values.tiktok_music_start;
    const end = values.tiktok_music_end;
    if (typeof start === 'number' && typeof end === 'number' && end <= start) {
      violations.push({ field: 'tiktok_music_end', message: 'tiktok_music_end must be after tiktok_music_start.' });
    }
    if (ctx.endpoint === 'photo' && typeof values.photo_cover_index === 'number' && values.photo_cover_index >= ctx.mediaCount) {
      violations.push({ field: 'photo_cover_index', message: `photo_cover_index is 0-based and there are ${ctx.mediaCount} photos.` });
    }
    return violations;
  },
};

