/**
 * The X fields of the spec on each endpoint. `x_title` and `x_first_comment` are not here: the
 * engine folds `<platform>_title` into the post text and `<platform>_first_comment` into the first
 * comment for every network.
 */
import type { MediaRef } from '../../../core/domain/media';
import type { SettingViolation, SettingsSchema } from '../../../core/domain/settings';

const ALT_TEXT_MAX = 1000;

const ALL = ['video', 'photo', 'text'] as const;
const MEDIA = ['video', 'photo'] as const;
const NUMERIC_ID = /^[0-9]{1,19}$/;
export const isGif = (m: MediaRef) => m.contentType === 'image/gif';

export function checkXSettings(values: Record<string, unknown>, ctx: { mediaCount: number }): SettingViolation[] {
  const violations: SettingViolation[] = [];
  const list = (name: string) => (Array.isArray(values[name]) ? (values[name] as string[]) : []);
  for (const name of ['reply_to_id', 'quote_tweet_id', 'community_id']) {
    const value = values[name];
    if (typeof value === 'string' && !NUMERIC_ID.test(value)) violations.push({ field: name, message: `${name} must be a numeric X id` });
  }
  for (const name of ['tagged_user_ids', 'exclude_reply_user_ids']) {
    const bad = list(name).filter((id) => !NUMERIC_ID.test(id));
    if (bad.length) violations.push({ field: name, message: `${name} must hold numeric X user ids; not ${bad.join(', ')}` });
  }
  if (list('exclude_reply_user_ids').length && values.reply_to_id === undefined) {
    violations.push({ field: 'exclude_reply_user_ids', message: 'exclude_reply_user_ids requires reply_to_id' });
  }
  if (values.quote_tweet_id !== undefined && ctx.mediaCount > 0) {
    violations.push({ field: 'quote_tweet_id', message: 'quote_tweet_id cannot be combined with media' });
  }
  if (values.share_with_followers === true && values.community_id === undefined) {
    violations.push({ field: 'share_with_followers', message: 'share_with_followers requires community_id' });
  }
  if (typeof values.direct_message_deep_link === 'string') {
    const link = URL.canParse(values.direct_message_deep_link) ? new URL(values.direct_message_deep_link) : undefined;
    if (!link || !['twitter.com', 'x.com'].includes(link.hostname.replace(/^www\./, '')) || !link.pathname.startsWith('/messages/compose')) {
      violations.push({ field: 'direct_message_deep_link', message: 'direct_message_deep_link must be an X DM link (https://x.com/messages/compose?recipient_id=…)' });
    }
  }
  const layout = values.x_thread_image_layout;
  if (Array.isArray(layout)) {
    const counts = layout.map((item) => (/^[0-4]$/.test(String(item)) ? Number(item) : NaN));
    if (counts.some(Number.isNaN)) {
      violations.push({ field: 'x_thread_image_layout', message: 'x_thread_image_layout takes a comma list of numbers 0-4' });
    } else if (counts.reduce((a, b) => a + b, 0) !== ctx.mediaCount) {
      violations.push({ field: 'x_thread_image_layout', message: `x_thread_image_layout adds up to ${counts.reduce((a, b) => a + b, 0)} images, but ${ctx.mediaCount} were sent` });
    }
  }
  const alts = list('x_alt_text');
  const tooLong = alts.findIndex((alt) => [...alt].length > ALT_TEXT_MAX);
  if (tooLong >= 0) violations.push({ field: 'x_alt_text', message: `x_alt_text is at most ${ALT_TEXT_MAX} characters per image (item ${tooLong + 1} is longer)` });
  if (alts.length > ctx.mediaCount) violations.push({ field: 'x_alt_text', message: `x_alt_text has ${alts.length} items for ${ctx.mediaCount} images` });
  return violations;
}

export const xSettings: SettingsSchema = {
  fields: [
    { name: 'x_long_text_as_post', type: 'boolean', endpoints: ALL, default: false, description: 'Post a long text as one (Premium) post instead of a thread.' },
    { name: 'x_article_title', type: 'string', endpoints: ['text'], maxLength: 100, description: 'Publish the text as a long-form X Article with this title (Premium accounts).' },
    { name: 'x_article_draft', type: 'boolean', endpoints: ['text'], description: 'With x_article_title: save the Article as a draft instead of publishing it.' },
    { name: 'x_thread_image_layout', type: 'string_list', endpoints: ['photo'], separator: ',', description: 'Images per tweet of the thread, e.g. 2,0,2 (0 = text-only tweet); must add up to the number of images.' },
    { name: 'reply_settings', type: 'string', endpoints: ALL, oneOf: ['following', 'mentionedUsers', 'subscribers', 'verified'] },
    { name: 'geo_place_id', type: 'string', endpoints: ALL },
    { name: 'nullcast', type: 'boolean', endpoints: ALL, default: false, description: 'Promoted-only post: not shown on the timeline.' },
    // The spec maps is_ai_generated to made_with_ai on x; the x field wins when both are sent.
    { name: 'made_with_ai', aliases: ['is_ai_generated'], type: 'boolean', endpoints: ALL, default: false },
    { name: 'for_super_followers_only', type: 'boolean', endpoints: ALL, default: false },
    { name: 'community_id', type: 'string', endpoints: ALL },
    { name: 'share_with_followers', type: 'boolean', endpoints: ALL, default: false },
    { name: 'direct_message_deep_link', type: 'url', endpoints: ALL },
    { name: 'tagged_user_ids', type: 'string_list', endpoints: MEDIA, maxLength: 10 },
    { name: 'reply_to_id', type: 'string', endpoints: ALL },
    { name: 'exclude_reply_user_ids', type: 'string_list', endpoints: ALL },
    // Alt texts contain commas, so items are separated by `||` (or sent as a JSON array / repeated field).
    { name: 'x_alt_text', type: 'string_list', endpoints: ['photo'], separator: '||' },
    // The spec lists it on photos; X takes it on any post, so video and text posts may carry it too.
    { name: 'x_paid_partnership', type: 'boolean', endpoints: ALL, default: false },
    { name: 'quote_tweet_id', type: 'string', endpoints: ALL },
  ],
  check: (values, ctx) => checkXSettings(values, ctx),
};

