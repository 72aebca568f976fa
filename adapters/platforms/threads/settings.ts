/** Threads' request fields and the checks intake runs on them. */
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { MAX_ALT_TEXT, MAX_CAROUSEL } from './limits';

const REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only', 'followers'] as const;
const ALL: readonly MediaKind[] = ['video', 'photo', 'text'];

/** The number of files in each post of the thread, from the layout setting or in chunks of 20. */
export function layoutOf(values: Record<string, unknown>, mediaCount: number): number[] {
  const raw = values.threads_thread_media_layout as string[] | undefined;
  if (raw?.length) return raw.map(Number);
  if (mediaCount === 0) return [0];
  const out: number[] = [];
  for (let left = mediaCount; left > 0; left -= MAX_CAROUSEL) out.push(Math.min(MAX_CAROUSEL, left));
  return out;
}

function checkSettings(values: Record<string, unknown>, ctx: { endpoint: MediaKind; mediaCount: number }): SettingViolation[] {
  const violations: SettingViolation[] = [];
  const tag = values.threads_topic_tag as string | undefined;
  if (tag !== undefined && (!tag.trim() || /[.&]/.test(tag))) {
    violations.push({ field: 'threads_topic_tag', message: 'threads_topic_tag is 1-50 characters without a period or an ampersand' });
  }
  const layout = values.threads_thread_media_layout as string[] | undefined;
  if (layout?.length) {
    const counts = layout.map(Number);
    if (counts.some((n) => !Number.isInteger(n) || n < 0 || n > MAX_CAROUSEL)) {
      violations.push({ field: 'threads_thread_media_layout', message: `threads_thread_media_layout takes whole numbers from 0 to ${MAX_CAROUSEL}` });
    } else if (counts.reduce((a, b) => a + b, 0) !== ctx.mediaCount) {
      violations.push({ field: 'threads_thread_media_layout', message: `threads_thread_media_layout adds up to ${counts.reduce((a, b) => a + b, 0)}, but ${ctx.mediaCount} files were sent` });
    } else if (counts.slice(1).includes(0)) {
      // A text-only post needs text, and only the first post of the thread carries the title.
      violations.push({ field: 'threads_thread_media_layout', message: 'only the first post of the thread can be text-only (0): it carries the title' });
    }
  }
  const alt = values.threads_alt_text as string[] | undefined;
  if (alt) {
    const long = alt.findIndex((a) => [...a].length > MAX_ALT_TEXT);
    if (long >= 0) violations.push({ field: 'threads_alt_text', message: `threads_alt_text item ${long + 1} is longer than ${MAX_ALT_TEXT} characters` });
    if (alt.length > ctx.mediaCount) violations.push({ field: 'threads_alt_text', message: `threads_alt_text has ${alt.length} items for ${ctx.mediaCount} files` });
  }
  return violations;
}

export const threadsSettings: SettingsSchema = {
  fields: [
    { name: 'threads_topic_tag', type: 'string', endpoints: ALL, maxLength: 50, description: 'One topic per post: 1-50 characters, no "." or "&".' },
    { name: 'threads_reply_control', type: 'string', endpoints: ALL, oneOf: REPLY_CONTROLS, description: 'Who can reply; "followers" means followers_only.' },
    { name: 'threads_reply_to_id', type: 'string', endpoints: ALL, description: 'Publish as a reply to this Threads post id.' },
    { name: 'threads_quote_post_id', type: 'string', endpoints: ALL, description: 'Quote this Threads post id.' },
    { name: 'threads_alt_text', type: 'string_list', endpoints: ['photo', 'video'], separator: '||',
      description: `Alt text per file, in order (JSON array or "||"-separated); max ${MAX_ALT_TEXT} characters each.` },
    { name: 'threads_thread_media_layout', type: 'string_list', endpoints: ['photo'],
      description: `Files per post of a thread, e.g. "0,3,2"; each 0-${MAX_CAROUSEL}, adding up to the number of files. Without it, more than ${MAX_CAROUSEL} files are split into posts of ${MAX_CAROUSEL}.` },
  ],
  check: checkSettings,
};
