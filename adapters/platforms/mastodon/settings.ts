/**
 * What Mastodon accepts from Herald's clients: the fields of `POST /users/mastodon/credentials`
 * (the instance and an access token) and the per-post fields of a status
 * (docs.joinmastodon.org/methods/statuses/#create).
 */
import type { SettingField, SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';

const ALL = ['text', 'photo', 'video'] as const;
export const VISIBILITIES = ['public', 'unlisted', 'private', 'direct'] as const;
/** A poll's bounds on a default instance (configuration.polls). */
export const POLL_MAX_OPTIONS = 4;
export const POLL_OPTION_MAX_CHARS = 50;
export const POLL_MIN_EXPIRY_S = 300;
export const POLL_MAX_EXPIRY_S = 2_629_746;

export const mastodonCredentialFields: SettingsSchema = {
  fields: [
    credentialField({
      name: 'instance_url', type: 'url', required: true,
      description: 'The Mastodon server the account lives on, such as https://mastodon.social.',
    }),
    credentialField({
      name: 'access_token', type: 'string', required: true,
      description: 'An access token with the read:accounts, write:statuses and write:media scopes (Preferences → Development → New application → Your access token).',
    }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    if (typeof values.instance_url === 'string') {
      const url = new URL(values.instance_url);
      if (url.username || url.password || url.search || url.hash) {
        violations.push({ field: 'instance_url', message: 'instance_url must be the server\'s address only, such as https://mastodon.social' });
      }
    }
    if (typeof values.access_token === 'string' && !/^[\w.~+/=-]{8,512}$/.test(values.access_token.trim())) {
      violations.push({ field: 'access_token', message: 'access_token must be a Mastodon access token' });
    }
    return violations;
  },
};

const field = (f: Omit<SettingField, 'endpoints'> & { endpoints?: SettingField['endpoints'] }): SettingField => ({ endpoints: ALL, ...f });

export const mastodonSettings: SettingsSchema = {
  fields: [
    field({ name: 'mastodon_title', type: 'string', description: 'The status text for Mastodon; overrides title.' }),
    field({ name: 'mastodon_visibility', aliases: ['visibility_mastodon'], type: 'string', oneOf: VISIBILITIES, default: 'public',
      description: 'Who sees the status: public (default), unlisted, private (followers only) or direct (mentioned accounts only).' }),
    field({ name: 'mastodon_spoiler_text', type: 'string', maxLength: 500, description: 'A content warning shown in place of the text until opened.' }),
    field({ name: 'mastodon_sensitive', type: 'boolean', description: 'Mark the media as sensitive (hidden behind a warning).' }),
    field({ name: 'mastodon_language', type: 'string', description: 'The language of the status, as an ISO 639-1 code such as en.' }),
    field({ name: 'mastodon_alt_text', aliases: ['mastodon_alt_text[]'], type: 'string_list', endpoints: ['photo', 'video'], separator: '||',
      description: 'Descriptions of the media for people who cannot see them, in order (JSON list, repeated field or ||-separated; up to 1,500 characters each).' }),
    field({ name: 'mastodon_poll_options', aliases: ['mastodon_poll_options[]'], type: 'string_list', endpoints: ['text'], maxLength: POLL_MAX_OPTIONS,
      description: `A poll under the text: 2 to ${POLL_MAX_OPTIONS} choices of up to ${POLL_OPTION_MAX_CHARS} characters (JSON list, repeated field or comma-separated).` }),
    field({ name: 'mastodon_poll_expires_in', type: 'integer', endpoints: ['text'], min: POLL_MIN_EXPIRY_S, max: POLL_MAX_EXPIRY_S, default: 86_400,
      description: 'Seconds the poll stays open (default one day).' }),
    field({ name: 'mastodon_poll_multiple', type: 'boolean', endpoints: ['text'], description: 'Voters may choose several options.' }),
    field({ name: 'mastodon_poll_hide_totals', type: 'boolean', endpoints: ['text'], description: 'Hide vote counts until the poll ends.' }),
  ],
  check(values, ctx) {
    const violations: SettingViolation[] = [];
    const options = values.mastodon_poll_options as string[] | undefined;
    if (options) {
      if (options.length < 2) violations.push({ field: 'mastodon_poll_options', message: 'mastodon_poll_options needs at least 2 choices' });
      const long = options.find((o) => [...o].length > POLL_OPTION_MAX_CHARS);
      if (long) violations.push({ field: 'mastodon_poll_options', message: `mastodon_poll_options: "${long}" is longer than ${POLL_OPTION_MAX_CHARS} characters` });
      if (new Set(options).size !== options.length) violations.push({ field: 'mastodon_poll_options', message: 'mastodon_poll_options has the same choice twice' });
    }
    if (typeof values.mastodon_language === 'string' && !/^[a-z]{2,3}$/i.test(values.mastodon_language)) {
      violations.push({ field: 'mastodon_language', message: 'mastodon_language must be an ISO 639 language code such as en' });
    }
    const alts = values.mastodon_alt_text as string[] | undefined;
    if (alts && alts.length > ctx.mediaCount) violations.push({ field: 'mastodon_alt_text', message: `mastodon_alt_text has ${alts.length} texts for ${ctx.mediaCount} media` });
    if (alts?.some((a) => [...a].length > 1500)) violations.push({ field: 'mastodon_alt_text', message: 'mastodon_alt_text: each text is at most 1,500 characters' });
    return violations;
  },
};
