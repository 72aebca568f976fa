/**
 * The Lemmy HTTP API (join-lemmy.org/api, v3) of one instance as the adapter uses it: JSON calls with
 * the login JWT as a Bearer token, pict-rs image uploads, and THE one place Lemmy's answers get a
 * meaning (mapLemmyFailure). Lemmy's errors are `{error: "<snake_case code>"}`.
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, malformedAnswer, noResponseMessage, retryAfterMs, str, trimBase, type HttpExchange, type Json, type FailureContext, type Now,
} from '../kit/http';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_UPLOAD_TIMEOUT_MS = 2 * 60_000;
const DEFAULT_RETRY_MS = 60_000;

export type LemmyOutcome = HttpExchange | { kind: 'malformed'; status: number; what: string };

const AUTH = new Set(['not_logged_in', 'incorrect_login', 'invalid_auth_token', 'email_not_verified', 'registration_application_is_pending',
  'registration_denied', 'missing_totp_token', 'incorrect_totp_token', 'deleted', 'account_deleted']);
const RESTRICTED = new Set(['site_ban', 'person_is_banned_from_site', 'banned_from_community', 'person_is_banned_from_community']);
const CONTENT: Record<string, string> = {
  invalid_post_title: 'text_too_long', invalid_body_field: 'body_too_long', invalid_url: 'invalid_url', url_blocked: 'url_blocked',
  blocked_url: 'url_blocked', image_url_missing_path_segments: 'invalid_url', slurs: 'text_rejected', too_many_items: 'too_many_items',
  file_type_not_allowed: 'media_rejected', pictrs_response_error: 'media_rejected', image_too_large: 'media_too_large', invalid_language_id: 'invalid_language',
  couldnt_find_post: 'post_not_found', no_post_edit_allowed: 'edit_not_allowed', language_not_allowed: 'invalid_language',
};
const COMMUNITY = new Set(['couldnt_find_community', 'only_mods_can_post_in_community', 'community_is_locked', 'no_community_edit_allowed', 'deleted_community', 'community_removed']);

/**
 * The one place Lemmy's answers get a meaning in the core taxonomy, by the `error` code first, then
 * the HTTP status. Messages never contain the JWT or the password.
 */
export function mapLemmyFailure(outcome: LemmyOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  if (outcome.kind === 'no_response') return new PlatformError('lemmy', { kind: 'transient' }, noResponseMessage('The Lemmy instance', outcome, timeoutMs));
  if (outcome.kind === 'malformed') return malformedAnswer('lemmy', 'The Lemmy instance', outcome, 'the community');
  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const code = str(body.error);
  const said = `Lemmy: ${code ?? `HTTP ${status}`}${str(body.message) ? ` (${str(body.message)})` : ''}`;
  const upstream = { status, ...(code ? { code } : {}) };
  const fail = (failure: ConstructorParameters<typeof PlatformError>[1], message = said) => new PlatformError('lemmy', failure, message, upstream);

  if (status === 429 || code === 'rate_limit_error') return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers, now, DEFAULT_RETRY_MS) });
  if ((code && AUTH.has(code)) || status === 401) {
    return fail({ kind: 'auth_expired', reason: code ?? 'unauthorized' }, `${said}. The login no longer works (password changed, account not approved, or 2FA on); reconnect the account.`);
  }
  if (code && RESTRICTED.has(code)) return fail({ kind: 'rejected', code }, `${said}. The account is banned there; a moderator or admin must lift the ban.`);
  if (code && COMMUNITY.has(code)) return fail({ kind: 'rejected', code }, `${said}. The community cannot take this post; reconnect with a community the account may post in.`);
  if (code && code in CONTENT) return fail({ kind: 'invalid_content', code: CONTENT[code] });
  if (status === 413) return fail({ kind: 'invalid_content', code: 'media_too_large' });
  if (status >= 500) return fail({ kind: 'transient' }, `The Lemmy instance is failing (${code ?? `HTTP ${status}`}); try again later.`);
  return fail({ kind: 'rejected', ...(code ? { code } : {}) });
}

export interface LemmyClientOptions { timeoutMs: number; uploadTimeoutMs: number; fetch: typeof fetch; now: Now }

export interface LemmyClient {
  /** One API call under `/api/v3`; answers the JSON object, `valid` deciding whether it is what the call returns. */
  call(instance: string, method: 'GET' | 'POST' | 'PUT', path: string, payload: Json | undefined, jwt: string | undefined, what: string, valid: (body: Json) => boolean, signal?: AbortSignal): Promise<Json>;
  /** POST /pictrs/image (multipart `images[]`); answers the image's URL on the instance. */
  uploadImage(instance: string, jwt: string, bytes: Buffer, contentType: string, filename: string, signal?: AbortSignal): Promise<string>;
}

export function createLemmyClient(opts: LemmyClientOptions): LemmyClient {
  const { timeoutMs, now } = opts;
  const failWith = (timeout: number) => (outcome: LemmyOutcome) => mapLemmyFailure(outcome, { timeoutMs: timeout, now: now() });
  return {
    async call(instance, method, path, payload, jwt, what, valid, signal) {
      const fail = failWith(timeoutMs);
      const outcome = await exchangeJson(`${trimBase(instance)}/api/v3${path}`, {
        method,
        headers: { accept: 'application/json', ...(jwt ? { authorization: `Bearer ${jwt}` } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) },
        ...(payload ? { body: JSON.stringify(payload) } : {}),
      }, { fetch: opts.fetch, timeoutMs, signal });
      if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw fail(outcome);
      if (!isObject(outcome.body) || !valid(outcome.body)) throw fail({ kind: 'malformed', status: outcome.status, what });
      return outcome.body;
    },
    async uploadImage(instance, jwt, bytes, contentType, filename, signal) {
      const fail = failWith(opts.uploadTimeoutMs);
      const form = new FormData();
      form.append('images[]', new Blob([bytes], { type: contentType }), filename);
      const base = trimBase(instance);
      const outcome = await exchangeJson(`${base}/pictrs/image`, {
        method: 'POST', headers: { accept: 'application/json', authorization: `Bearer ${jwt}`, cookie: `jwt=${jwt}` }, body: form,
      }, { fetch: opts.fetch, timeoutMs: opts.uploadTimeoutMs, signal });
      if (outcome.kind === 'no_response') throw fail(outcome);
      const body = isObject(outcome.body) ? outcome.body : {};
      if (outcome.status < 200 || outcome.status >= 300 || (str(body.msg) && body.msg !== 'ok')) {
        // pict-rs says what went wrong in `msg`; Lemmy's own refusals use `error`.
        const code = str(body.error) ?? (/too large|too big/i.test(str(body.msg) ?? '') ? 'image_too_large' : 'pictrs_response_error');
        throw fail({ ...outcome, status: outcome.status >= 200 && outcome.status < 300 ? 400 : outcome.status, body: { error: code, message: str(body.msg) } });
      }
      const file = Array.isArray(body.files) && isObject(body.files[0]) ? str(body.files[0].file) : undefined;
      if (!file) throw fail({ kind: 'malformed', status: outcome.status, what: 'the uploaded image' });
      return `${base}/pictrs/image/${encodeURIComponent(file)}`;
    },
  };
}
