/** LinkedIn's per-post settings (the spec's linkedin fields) and their cross-field checks. */
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { codePointLength } from '../../../core/ports/platform';

export const LINKEDIN_VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'] as const;
export const LINKEDIN_POLL_DURATIONS = ['ONE_DAY', 'THREE_DAYS', 'SEVEN_DAYS', 'FOURTEEN_DAYS'] as const;
const ALT_TEXT_MAX_CHARS = 4086;
const POLL_QUESTION_MAX_CHARS = 140;
const POLL_OPTION_MAX_CHARS = 30;

const BOTH_MEDIA: readonly MediaKind[] = ['video', 'photo'];
const ALL_ENDPOINTS: readonly MediaKind[] = ['video', 'photo', 'text', 'document'];

/** `123` and `urn:li:organization:123` both name the page 123. */
export function parseOrganizationId(raw: string): string | undefined {
  return /^(?:urn:li:organization:)?(\d{1,20})$/.exec(raw.trim())?.[1];
}

/** Also run by the publisher: settings may reach it without the edge (a stored post, a test). */
export function checkLinkedInSettings(values: Record<string, unknown>, ctx: { endpoint: MediaKind; mediaCount: number }): SettingViolation[] {
  const violations: SettingViolation[] = [];
  const page = values.target_linkedin_page_id;
  if (typeof page === 'string' && !parseOrganizationId(page)) {
    violations.push({ field: 'target_linkedin_page_id', message: 'target_linkedin_page_id must be a numeric organization id or urn:li:organization:<id>' });
  }
  const alt = values.linkedin_alt_text;
  if (ctx.endpoint === 'photo' && Array.isArray(alt)) {
    if (alt.length > ctx.mediaCount) {
      violations.push({ field: 'linkedin_alt_text', message: `linkedin_alt_text has ${alt.length} entries for ${ctx.mediaCount} photo(s)` });
    }
    const long = alt.findIndex((a) => codePointLength(String(a)) > ALT_TEXT_MAX_CHARS);
    if (long >= 0) violations.push({ field: 'linkedin_alt_text', message: `linkedin_alt_text entry ${long + 1} is over ${ALT_TEXT_MAX_CHARS} characters` });
  }
  if (ctx.endpoint === 'text') {
    const question = values.linkedin_poll_question;
    const options = Array.isArray(values.linkedin_poll_options) ? (values.linkedin_poll_options as string[]) : undefined;
    if (options && question === undefined) {
      violations.push({ field: 'linkedin_poll_question', message: 'linkedin_poll_question is required when linkedin_poll_options is sent' });
    }
    if (question !== undefined && (!options || options.length < 2 || options.length > 4)) {
      violations.push({ field: 'linkedin_poll_options', message: 'linkedin_poll_options needs 2 to 4 options for a poll' });
    }
    const long = options?.find((o) => codePointLength(o) > POLL_OPTION_MAX_CHARS);
    if (long !== undefined) violations.push({ field: 'linkedin_poll_options', message: `poll option "${long}" is over ${POLL_OPTION_MAX_CHARS} characters` });
    if (options && new Set(options).size !== options.length) {
      violations.push({ field: 'linkedin_poll_options', message: 'linkedin_poll_options must not repeat an option' });
    }
  }
  return violations;
}

export const linkedinSettings: SettingsSchema = {
  fields: [
    { name: 'linkedin_description', aliases: ['description', 'commentary'], type: 'string', endpoints: [...BOTH_MEDIA, 'document'], description: 'Post commentary; defaults to the title.' },
    { name: 'visibility', aliases: ['linkedin_visibility', 'linkedinVisibility'], type: 'string', endpoints: ALL_ENDPOINTS, oneOf: LINKEDIN_VISIBILITIES, default: 'PUBLIC' },
    { name: 'target_linkedin_page_id', type: 'string', endpoints: ALL_ENDPOINTS, description: 'Post as this organization page (numeric id or urn:li:organization:<id>).' },
    { name: 'thumbnail', type: 'file', endpoints: ['video'], description: 'JPG/PNG up to 10 MB; best effort.' },
    { name: 'thumbnail_url', type: 'url', endpoints: ['video'], description: 'Used when no thumbnail file is sent; best effort.' },
    { name: 'linkedin_alt_text', type: 'string_list', endpoints: ['photo'], separator: '||', description: 'One alt text per photo, in order.' },
    // The spec lists it on the photo endpoint; text posts are the same Posts API call, so they honour it too.
    { name: 'linkedin_disable_reshare', type: 'boolean', endpoints: ['photo', 'text', 'document'], default: false },
    { name: 'linkedin_poll_question', type: 'string', endpoints: ['text'], maxLength: POLL_QUESTION_MAX_CHARS },
    { name: 'linkedin_poll_options', aliases: ['linkedin_poll_options[]'], type: 'string_list', endpoints: ['text'], maxLength: 4 },
    { name: 'linkedin_poll_duration', type: 'string', endpoints: ['text'], oneOf: LINKEDIN_POLL_DURATIONS, default: 'SEVEN_DAYS' },
  ],
  check: checkLinkedInSettings,
};
