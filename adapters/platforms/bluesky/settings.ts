/**
 * What Bluesky accepts from Herald's clients: the per-post settings (the spec's bluesky row) and
 * the fields of `POST /users/bluesky/credentials` (a handle and an app password).
 *
 * bluesky_title and bluesky_first_comment are not settings: the engine folds them into post.title
 * and the first comment for every network. The record-level fields (langs, labels, gates, quote)
 * apply to any post, so they are declared on all three endpoints; alt text also fits the video embed.
 */
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';
import { graphemeCount } from './text';

export const THREADGATE = 'app.bsky.feed.threadgate';
/** app.bsky.embed.images: 4 images per post; a gallery threads up to 20. */
export const IMAGES_PER_POST = 4;
export const GALLERY_MAX_IMAGES = 20;
/** app.bsky.embed.video: alt text of at most 1000 graphemes. */
const VIDEO_ALT_MAX_GRAPHEMES = 1000;
const SELF_LABELS = ['porn', 'sexual', 'nudity', 'graphic-media'] as const;

const ALL_ENDPOINTS: readonly MediaKind[] = ['text', 'photo', 'video'];
const THREADGATE_HELP = 'everyone, nobody, or a comma list of mention, following, followers, list:<at://… list URI>';
const LANG_TAG = /^(?:[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{1,8})*|[ix]-[a-zA-Z0-9]{1,8}(?:-[a-zA-Z0-9]{1,8})*)$/;
const LIST_URI = /^at:\/\/[^/\s]+\/app\.bsky\.graph\.list\/[A-Za-z0-9._:~-]{1,512}$/;

/**
 * bluesky_alt_text is positional (the nth text describes the nth image), so it is parsed here
 * rather than as a string_list, which drops empty items and would shift texts onto other images.
 */
export function parseAltTexts(raw: unknown): string[] | { error: string } {
  if (raw === undefined || raw === null || raw === '') return [];
  const text = String(raw);
  if (text.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed) && parsed.every((p) => typeof p === 'string' || p === null)) return parsed.map((p) => (p ?? '').trim());
    } catch { /* answered below */ }
    return { error: 'bluesky_alt_text is not a valid JSON array of strings' };
  }
  return text.split('||').map((t) => t.trim());
}

export type ThreadgateRule = { $type: string; list?: string };

/** bluesky_threadgate → the threadgate `allow` list; undefined means everyone may reply (no record). */
export function parseThreadgate(values: readonly string[]): { allow?: ThreadgateRule[] } | { error: string } {
  const unique = [...new Set(values.map((v) => v.trim()).filter(Boolean))];
  if (!unique.length || (unique.length === 1 && unique[0] === 'everyone')) return {};
  if (unique.length === 1 && unique[0] === 'nobody') return { allow: [] };
  const allow: ThreadgateRule[] = [];
  for (const value of unique) {
    if (value === 'everyone' || value === 'nobody') return { error: `bluesky_threadgate ${value} cannot be combined with other rules` };
    if (value === 'mention') allow.push({ $type: `${THREADGATE}#mentionRule` });
    else if (value === 'following') allow.push({ $type: `${THREADGATE}#followingRule` });
    else if (value === 'followers') allow.push({ $type: `${THREADGATE}#followerRule` });
    else if (value.startsWith('list:') && LIST_URI.test(value.slice(5))) allow.push({ $type: `${THREADGATE}#listRule`, list: value.slice(5) });
    else return { error: `bluesky_threadgate has ${value}; allowed: ${THREADGATE_HELP}` };
  }
  // The lexicon allows at most 5 rules.
  if (allow.length > 5) return { error: 'bluesky_threadgate takes at most 5 rules' };
  return { allow };
}

/** A post's repository and record key. */
export interface PostRef { repo: string; rkey: string }

/** A post as `at://<did or handle>/app.bsky.feed.post/<rkey>` or a web URL `…/profile/<actor>/post/<rkey>`. */
export function parsePostRef(raw: string): PostRef | undefined {
  const value = raw.trim();
  const at = /^at:\/\/([^/\s]+)\/app\.bsky\.feed\.post\/([A-Za-z0-9._:~-]{1,512})$/.exec(value);
  if (at) return { repo: at[1]!, rkey: at[2]! };
  try {
    const url = new URL(value);
    // Only the actor and rkey are read from the URL; the post is looked up on the PDS, never fetched from the URL's host.
    const web = /^\/profile\/([^/]+)\/post\/([A-Za-z0-9._:~-]{1,512})\/?$/.exec(url.pathname);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && web) return { repo: decodeURIComponent(web[1]!), rkey: web[2]! };
  } catch { /* not a URL */ }
  return undefined;
}

export const disablesQuotes = (value: unknown): boolean => value === 'disable_quotes' || value === 'true';

export const blueskySettings: SettingsSchema = {
  fields: [
    { name: 'bluesky_alt_text', type: 'string', endpoints: ['photo', 'video'],
      description: 'Alt text per image, in order: one text, a JSON array, or texts separated by ||.' },
    { name: 'bluesky_langs', type: 'string_list', endpoints: ALL_ENDPOINTS, maxLength: 3, description: 'Up to 3 BCP-47 language codes.' },
    { name: 'bluesky_labels', type: 'string_list', endpoints: ALL_ENDPOINTS, oneOf: SELF_LABELS, description: 'Self-labels (content warnings).' },
    { name: 'bluesky_gallery', type: 'boolean', endpoints: ['photo'], default: false,
      description: `Up to ${GALLERY_MAX_IMAGES} images, posted as a thread of ${IMAGES_PER_POST}-image posts.` },
    { name: 'bluesky_threadgate', aliases: ['bluesky_reply_settings'], type: 'string_list', endpoints: ALL_ENDPOINTS,
      default: ['everyone'], description: `Who may reply: ${THREADGATE_HELP}.` },
    { name: 'bluesky_postgate', aliases: ['bluesky_quote_settings'], type: 'string', endpoints: ALL_ENDPOINTS,
      oneOf: ['disable_quotes', 'true', 'false'], description: 'disable_quotes (or true) stops others from quoting the post.' },
    { name: 'bluesky_quote_uri', aliases: ['bluesky_quote_id', 'bluesky_quote_url', 'bluesky_quote_post', 'bluesky_quote'],
      type: 'string', endpoints: ALL_ENDPOINTS, description: 'The post to quote: a bsky.app post URL or an at:// post URI.' },
  ],
  check(values, ctx) {
    const violations: SettingViolation[] = [];
    const langs = (values.bluesky_langs as string[] | undefined) ?? [];
    const badLangs = langs.filter((l) => !LANG_TAG.test(l));
    if (badLangs.length) violations.push({ field: 'bluesky_langs', message: `bluesky_langs has ${badLangs.join(', ')}; use BCP-47 codes such as en, pt-BR` });

    const gate = parseThreadgate((values.bluesky_threadgate as string[] | undefined) ?? []);
    if ('error' in gate) violations.push({ field: 'bluesky_threadgate', message: gate.error });

    if (typeof values.bluesky_quote_uri === 'string' && !parsePostRef(values.bluesky_quote_uri)) {
      violations.push({ field: 'bluesky_quote_uri', message: 'bluesky_quote_uri must be a post URL (https://bsky.app/profile/<handle>/post/<id>) or an at:// post URI' });
    }

    const alts = parseAltTexts(values.bluesky_alt_text);
    if ('error' in alts) violations.push({ field: 'bluesky_alt_text', message: alts.error });
    else if (ctx.endpoint === 'video') {
      if (alts.length > 1) violations.push({ field: 'bluesky_alt_text', message: 'bluesky_alt_text takes one text for a video' });
      else if (alts[0] && graphemeCount(alts[0]) > VIDEO_ALT_MAX_GRAPHEMES) {
        violations.push({ field: 'bluesky_alt_text', message: `bluesky_alt_text is at most ${VIDEO_ALT_MAX_GRAPHEMES} characters for a video` });
      }
    } else if (ctx.endpoint === 'photo' && alts.length > ctx.mediaCount) {
      violations.push({ field: 'bluesky_alt_text', message: `bluesky_alt_text has ${alts.length} texts for ${ctx.mediaCount} photos` });
    }
    return violations;
  },
};

const APP_PASSWORD = /^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/;

/** Handles and emails are case-insensitive (the PDS lowercases them); DIDs are not. A leading @ is dropped. */
export function normalizeIdentifier(raw: string): string {
  const trimmed = raw.trim().replace(/^@/, '');
  return trimmed.startsWith('did:') ? trimmed : trimmed.toLowerCase();
}

export const normalizeAppPassword = (raw: string): string => raw.trim().toLowerCase();

export const blueskyCredentialFields: SettingsSchema = {
  fields: [
    credentialField({
      name: 'identifier', type: 'string', required: true,
      description: 'The Bluesky handle (such as alice.bsky.social), DID or account email.',
    }),
    credentialField({
      name: 'app_password', type: 'string', required: true,
      description: 'A Bluesky app password such as abcd-efgh-ijkl-mnop (Settings → Privacy and security → App passwords), not the account password.',
    }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    if (typeof values.identifier === 'string') {
      const id = normalizeIdentifier(values.identifier);
      if (!id || /\s/.test(id)) violations.push({ field: 'identifier', message: 'identifier must be a handle, DID or email' });
    }
    // Checked before anything is sent, so an account password is never sent to (or held by) Herald.
    if (typeof values.app_password === 'string' && !APP_PASSWORD.test(normalizeAppPassword(values.app_password))) {
      violations.push({ field: 'app_password', message: 'app_password must be an app password' });
    }
    return violations;
  },
};
