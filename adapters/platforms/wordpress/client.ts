/**
 * The WordPress REST API (developer.wordpress.org/rest-api) of one site, as the adapter uses it:
 * Basic auth with an application password, JSON calls and media uploads, and THE one place its
 * answers get a meaning (mapWordPressFailure). Errors are `{code, message, data:{status}}`; hosts
 * in front of WordPress add HTML error pages (413, 429, 502) that are read by status.
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, malformedAnswer, noResponseMessage, retryAfterMs, str, trimBase, type HttpExchange, type Json, type FailureContext, type Now,
} from '../kit/http';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_UPLOAD_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_RETRY_MS = 60_000;

export type WordPressOutcome = HttpExchange | { kind: 'malformed'; status: number; what: string };

const AUTH_CODES = new Set(['rest_not_logged_in', 'incorrect_password', 'invalid_username', 'invalid_email', 'application_passwords_disabled',
  'application_passwords_disabled_for_user', 'rest_authentication_invalid', 'invalid_application_password']);
const MEDIA_CODES = new Set(['rest_upload_sideload_error', 'rest_upload_no_data', 'rest_upload_no_content_disposition', 'rest_upload_invalid_disposition',
  'rest_upload_unknown_error', 'rest_upload_file_too_big', 'rest_upload_limited_space', 'rest_upload_user_quota_exceeded']);

/**
 * The one place a site's answers get a meaning in the core taxonomy: WordPress's error `code` first
 * (an upload refused for its type answers 500 with rest_upload_sideload_error), then the status.
 * Messages never contain the application password.
 */
export function mapWordPressFailure(outcome: WordPressOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  if (outcome.kind === 'no_response') return new PlatformError('wordpress', { kind: 'transient' }, noResponseMessage('The WordPress site', outcome, timeoutMs));
  if (outcome.kind === 'malformed') return malformedAnswer('wordpress', 'The WordPress site', outcome, 'the site\'s posts');
  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const code = str(body.code);
  const said = `WordPress: ${str(body.message) ?? code ?? `HTTP ${status}`}`;
  const upstream = { status, ...(code ? { code } : {}) };
  const fail = (failure: ConstructorParameters<typeof PlatformError>[1], message = said) => new PlatformError('wordpress', failure, message, upstream);

  if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers, now, DEFAULT_RETRY_MS) });
  if ((code && AUTH_CODES.has(code)) || status === 401) {
    return fail({ kind: 'auth_expired', reason: code ?? 'unauthorized' },
      `${said}. The username or application password no longer works (revoked, or application passwords disabled); reconnect with a new application password.`);
  }
  if (code === 'rest_upload_file_too_big' || status === 413) return fail({ kind: 'invalid_content', code: 'media_too_large' }, `${said}. The file is larger than the site accepts (upload_max_filesize).`);
  if (code && MEDIA_CODES.has(code)) return fail({ kind: 'invalid_content', code: 'media_rejected' });
  if (code === 'rest_invalid_param' || code === 'rest_missing_callback_param' || code === 'empty_content') {
    const params = isObject(body.data) && isObject(body.data.params) ? Object.entries(body.data.params).map(([k, v]) => `${k}: ${String(v)}`).join('; ') : '';
    return fail({ kind: 'invalid_content', code: code === 'empty_content' ? 'text_empty' : 'invalid_param' }, params ? `${said} (${params})` : said);
  }
  if (code === 'rest_post_invalid_id' || code === 'rest_already_trashed') return fail({ kind: 'invalid_content', code: 'post_not_found' });
  if (code === 'rest_no_route' || (status === 404 && !code)) {
    return fail({ kind: 'rejected', code: 'rest_api_unavailable' }, `${said}. The site does not serve the REST API at /wp-json/wp/v2 (disabled by a plugin, or not a WordPress site).`);
  }
  if (status >= 500) return fail({ kind: 'transient' }, `The WordPress site is failing (HTTP ${status}); try again later.`);
  if (status === 403) return fail({ kind: 'rejected', code: code ?? 'forbidden' }, `${said}. The user lacks the role this needs (an Author or Editor can publish and upload).`);
  return fail({ kind: 'rejected', ...(code ? { code } : {}) });
}

export interface WordPressSite { site: string; username: string; password: string }

export interface WordPressClientOptions { timeoutMs: number; uploadTimeoutMs: number; fetch: typeof fetch; now: Now }

export interface WordPressClient {
  /** A REST call under `/wp-json/wp/v2`; a 2xx without a JSON object with an `id` is malformed. */
  call(site: WordPressSite, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: Json, signal?: AbortSignal): Promise<Json & { id: number }>;
  /** POST /wp-json/wp/v2/media with the bytes. */
  upload(site: WordPressSite, bytes: Buffer, contentType: string, filename: string, signal?: AbortSignal): Promise<Json & { id: number }>;
}

export function createWordPressClient(opts: WordPressClientOptions): WordPressClient {
  const { timeoutMs, now } = opts;
  const auth = (s: WordPressSite) => `Basic ${Buffer.from(`${s.username}:${s.password.replace(/\s+/g, '')}`).toString('base64')}`;

  async function send(site: WordPressSite, path: string, init: RequestInit, what: string, timeout: number, signal?: AbortSignal) {
    const outcome = await exchangeJson(`${trimBase(site.site)}/wp-json/wp/v2${path}`, init, { fetch: opts.fetch, timeoutMs: timeout, signal });
    if (outcome.kind === 'no_response') throw mapWordPressFailure(outcome, { timeoutMs: timeout, now: now() });
    if (outcome.status < 200 || outcome.status >= 300) throw mapWordPressFailure(outcome, { timeoutMs: timeout, now: now() });
    if (!isObject(outcome.body) || typeof outcome.body.id !== 'number') throw mapWordPressFailure({ kind: 'malformed', status: outcome.status, what }, { timeoutMs: timeout, now: now() });
    return outcome.body as Json & { id: number };
  }

  return {
    call(site, method, path, payload, signal) {
      return send(site, path, {
        method,
        headers: { authorization: auth(site), accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}) },
        ...(payload ? { body: JSON.stringify(payload) } : {}),
      }, method === 'GET' ? 'the resource' : 'the post', timeoutMs, signal);
    },
    upload(site, bytes, contentType, filename, signal) {
      const safe = filename.replace(/[^A-Za-z0-9._-]/g, '_') || 'upload';
      return send(site, '/media', {
        method: 'POST',
        headers: { authorization: auth(site), accept: 'application/json', 'content-type': contentType, 'content-disposition': `attachment; filename="${safe}"` },
        body: bytes,
      }, 'the uploaded media', opts.uploadTimeoutMs, signal);
    },
  };
}
