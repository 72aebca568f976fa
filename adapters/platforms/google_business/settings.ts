/**
 * The Google Business Profile fields of the upload endpoints. The spec names `gbp_location_id`,
 * `gbp_post_type` (STANDARD, EVENT, OFFER, or MEDIA for photos and videos added to the location's
 * gallery) and `gbp_media_category`; the others are the LocalPost fields of Business Profile API v4
 * (developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts), named
 * `gbp_<field>`. `google_business_title` is not here: the engine folds it into the post text (the
 * post's `summary`).
 */
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';

const ALL = ['text', 'photo', 'video'] as const;
const MEDIA = ['photo', 'video'] as const;

export const GBP_POST_TYPES = ['STANDARD', 'EVENT', 'OFFER', 'MEDIA'] as const;
export const GBP_CTA_TYPES = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'] as const;
export const GBP_MEDIA_CATEGORIES = [
  'COVER', 'PROFILE', 'LOGO', 'EXTERIOR', 'INTERIOR', 'PRODUCT', 'AT_WORK', 'FOOD_AND_DRINK', 'MENU', 'COMMON_AREA', 'ROOMS', 'TEAMS', 'ADDITIONAL',
] as const;
export const GBP_EVENT_TITLE_MAX = 58;

/** `2026-12-24` or `2026-12-24T18:00` (local time of the location; seconds and offsets are dropped). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

export interface GbpDateTime { date: { year: number; month: number; day: number }; time?: { hours: number; minutes: number; seconds: 0; nanos: 0 } }

export function parseGbpDateTime(value: string): GbpDateTime | undefined {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  if (m[4] === undefined) return { date: { year, month, day } };
  const [hours, minutes] = [Number(m[4]), Number(m[5])];
  if (hours > 23 || minutes > 59) return undefined;
  return { date: { year, month, day }, time: { hours, minutes, seconds: 0, nanos: 0 } };
}

const order = (d: GbpDateTime, endOfDay: boolean) =>
  Date.UTC(d.date.year, d.date.month - 1, d.date.day) + (d.time ? (d.time.hours * 60 + d.time.minutes) * 60_000 : endOfDay ? 86_399_000 : 0);

export const googleBusinessSettings: SettingsSchema = {
  fields: [
    { name: 'gbp_location_id', type: 'string', endpoints: ALL, maxLength: 200,
      description: 'The location to post to: its id from GET /google-business/locations (or locations/<id>, accounts/<a>/locations/<id>). A location pinned to the profile wins. Optional when the account manages exactly one location.' },
    { name: 'gbp_post_type', type: 'string', endpoints: ALL, oneOf: GBP_POST_TYPES, default: 'STANDARD',
      description: 'STANDARD (an update), EVENT, OFFER, or MEDIA: the photos or video are added to the location\'s gallery (with gbp_media_category) instead of a post.' },
    { name: 'gbp_language_code', type: 'string', endpoints: ALL, maxLength: 35, default: 'en-US', description: 'BCP-47 language of the post.' },
    { name: 'gbp_cta_type', aliases: ['gbp_call_to_action'], type: 'string', endpoints: ALL, oneOf: GBP_CTA_TYPES,
      description: 'The post\'s button; every type but CALL needs gbp_cta_url. Google ignores it on OFFER posts.' },
    { name: 'gbp_cta_url', type: 'url', endpoints: ALL, description: 'Where the button leads.' },
    { name: 'gbp_event_title', type: 'string', endpoints: ALL, maxLength: GBP_EVENT_TITLE_MAX, description: 'EVENT and OFFER posts: the event or offer title (required there).' },
    { name: 'gbp_event_start', type: 'string', endpoints: ALL, description: 'EVENT and OFFER posts: start, YYYY-MM-DD or YYYY-MM-DDTHH:MM in the location\'s time (required there).' },
    { name: 'gbp_event_end', type: 'string', endpoints: ALL, description: 'EVENT and OFFER posts: end, same format (required there).' },
    { name: 'gbp_offer_coupon_code', type: 'string', endpoints: ALL, maxLength: 58, description: 'OFFER posts: the coupon code.' },
    { name: 'gbp_offer_redeem_url', type: 'url', endpoints: ALL, description: 'OFFER posts: where to redeem online.' },
    { name: 'gbp_offer_terms', type: 'string', endpoints: ALL, maxLength: 5000, description: 'OFFER posts: terms and conditions.' },
    { name: 'gbp_media_category', type: 'string', endpoints: MEDIA, oneOf: GBP_MEDIA_CATEGORIES, default: 'ADDITIONAL',
      description: 'gbp_post_type=MEDIA: where the media goes in the gallery (COVER, PROFILE and LOGO take one photo).' },
  ],
  check(values, ctx) {
    const v: SettingViolation[] = [];
    const type = values.gbp_post_type as string;
    if (type === 'MEDIA' && ctx.endpoint === 'text') v.push({ field: 'gbp_post_type', message: 'gbp_post_type MEDIA needs photos or a video (the photo or video endpoint)' });
    if (type === 'MEDIA' && ['COVER', 'PROFILE', 'LOGO'].includes(values.gbp_media_category as string) && (ctx.endpoint !== 'photo' || ctx.mediaCount !== 1)) {
      v.push({ field: 'gbp_media_category', message: `gbp_media_category ${String(values.gbp_media_category)} takes exactly one photo` });
    }
    if (values.gbp_cta_type !== undefined && values.gbp_cta_type !== 'CALL' && values.gbp_cta_url === undefined) {
      v.push({ field: 'gbp_cta_url', message: `gbp_cta_url is required with gbp_cta_type ${String(values.gbp_cta_type)}` });
    }
    if (values.gbp_cta_type === 'CALL' && values.gbp_cta_url !== undefined) v.push({ field: 'gbp_cta_url', message: 'gbp_cta_type CALL takes no URL: Google dials the location\'s phone number' });
    if (values.gbp_cta_url !== undefined && values.gbp_cta_type === undefined) v.push({ field: 'gbp_cta_type', message: 'gbp_cta_type is required with gbp_cta_url' });
    const starts = typeof values.gbp_event_start === 'string' ? parseGbpDateTime(values.gbp_event_start) : undefined;
    const ends = typeof values.gbp_event_end === 'string' ? parseGbpDateTime(values.gbp_event_end) : undefined;
    for (const [field, raw, parsed] of [['gbp_event_start', values.gbp_event_start, starts], ['gbp_event_end', values.gbp_event_end, ends]] as const) {
      if (raw !== undefined && !parsed) v.push({ field, message: `${field} must be YYYY-MM-DD or YYYY-MM-DDTHH:MM` });
    }
    if (type === 'EVENT' || type === 'OFFER') {
      if (values.gbp_event_title === undefined) v.push({ field: 'gbp_event_title', message: `gbp_event_title is required for ${type} posts` });
      if (values.gbp_event_start === undefined) v.push({ field: 'gbp_event_start', message: `gbp_event_start is required for ${type} posts` });
      if (values.gbp_event_end === undefined) v.push({ field: 'gbp_event_end', message: `gbp_event_end is required for ${type} posts` });
      if (starts && ends && order(ends, true) < order(starts, false)) v.push({ field: 'gbp_event_end', message: 'gbp_event_end is before gbp_event_start' });
    }
    if (type !== 'OFFER') {
      for (const f of ['gbp_offer_coupon_code', 'gbp_offer_redeem_url', 'gbp_offer_terms']) {
        if (values[f] !== undefined) v.push({ field: f, message: `${f} applies to OFFER posts only` });
      }
    }
    return v;
  },
};
