/**
 * Slack's Web API (api.slack.com/web) and incoming webhooks (api.slack.com/messaging/webhooks) as
 * the adapter uses them, and THE one place Slack's answers get a meaning (mapSlackFailure).
 *
 * The Web API answers HTTP 200 with `{ok:false, error}` for most refusals, 429 with Retry-After
 * when rate limited; incoming webhooks answer plain text (`ok`, or an error code such as `no_text`)
 * with an HTTP status.
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  callDeadline, exchangeJson, isObject, malformedAnswer, noResponseMessage, retryAfterMs, str, trimBase, type HttpExchange, type Json, type FailureContext, type Now,
} from '../kit/http';

export const SLACK_API_BASE = 'https://slack.com/api';
export const SLACK_WEBHOOK_BASE = 'https://hooks.slack.com';
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Slack's Retry-After is always sent with a 429; this covers a `rate_limited` error without one. */
const DEFAULT_RETRY_MS = 60_000;

/** What came back from Slack, before it is given a meaning. */
export type SlackOutcome =
  | HttpExchange
  /** `ok:true` (or a webhook 200) without what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** An incoming webhook's answer: its status and plain-text body. */
  | { kind: 'webhook'; status: number; headers: Headers; text: string };

const AUTH_ERRORS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'no_permission', 'missing_scope', 'not_allowed_token_type', 'ekm_access_denied', 'team_access_not_granted', 'org_login_required', 'invalid_token', 'no_service', 'no_team', 'team_not_found', 'action_prohibited', 'team_disabled']);
const CHANNEL_ERRORS = new Set(['channel_not_found', 'not_in_channel', 'is_archived', 'channel_is_archived', 'restricted_action', 'restricted_action_read_only_channel', 'restricted_action_thread_only_channel', 'restricted_action_non_threadable_channel']);
const TRANSIENT_ERRORS = new Set(['fatal_error', 'internal_error', 'service_unavailable', 'request_timeout', 'rollup_error', 'team_added_to_org']);
const CONTENT_ERRORS: Record<string, string | undefined> = {
  msg_too_long: 'text_too_long', no_text: 'text_empty', too_many_attachments: 'too_many_attachments', invalid_blocks: 'invalid_blocks',
  invalid_blocks_format: 'invalid_blocks', invalid_attachments: 'invalid_attachments', invalid_payload: 'invalid_payload', duplicate_message_not_found: undefined,
  message_limit_exceeded: 'message_limit_exceeded', too_many_contact_cards: undefined, cant_update_message: 'cant_update_message',
  file_upload_size_mismatch: 'file_size_mismatch',
  edit_window_closed: 'edit_window_closed', message_not_found: 'message_not_found', cant_delete_message: 'cant_delete_message',
};

const CHANNEL_HINT: Record<string, string> = {
  not_in_channel: 'Invite the app to the channel (/invite @app) or give it the chat:write.public scope, then try again.',
  channel_not_found: 'The channel was deleted or the app cannot see it; reconnect with a channel the app is in.',
  is_archived: 'The channel is archived; unarchive it or reconnect with another channel.',
  channel_is_archived: 'The channel is archived; unarchive it or reconnect with another channel.',
};

/**
 * The one place Slack's answers get a meaning in the core taxonomy: by the `error` code (Web API
 * body or webhook text), then by HTTP status. Messages never contain the token or the webhook URL.
 */
export function mapSlackFailure(outcome: SlackOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  if (outcome.kind === 'no_response') return new PlatformError('slack', { kind: 'transient' }, noResponseMessage('Slack', outcome, timeoutMs));
  if (outcome.kind === 'malformed') return malformedAnswer('slack', 'Slack', outcome, 'the channel');

  const { status, headers } = outcome;
  const code = outcome.kind === 'webhook'
    ? (/^[a-z_]+$/.test(outcome.text.trim()) ? outcome.text.trim() : undefined)
    : (isObject(outcome.body) ? str(outcome.body.error) : undefined);
  const upstream = { status, ...(code ? { code } : {}) };
  const said = `Slack: ${code ?? `HTTP ${status}`}`;
  const fail = (failure: ConstructorParameters<typeof PlatformError>[1], message = said) => new PlatformError('slack', failure, message, upstream);

  if (status === 429 || code === 'ratelimited' || code === 'rate_limited') {
    return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers, now, DEFAULT_RETRY_MS) },
      `${said}: Slack is rate limiting this app; wait before posting again.`);
  }
  if (code && AUTH_ERRORS.has(code)) {
    return fail({ kind: 'auth_expired', reason: code },
      `${said}. The token or webhook no longer works (revoked, expired or missing a scope); reconnect the Slack account.`);
  }
  if (code && CHANNEL_ERRORS.has(code)) {
    return fail({ kind: 'auth_expired', reason: code }, `${said}. ${CHANNEL_HINT[code] ?? 'The app may not post in this channel; reconnect with a channel it can post to.'}`);
  }
  if (code && code in CONTENT_ERRORS) return fail({ kind: 'invalid_content', ...(CONTENT_ERRORS[code] ? { code: CONTENT_ERRORS[code] } : {}) });
  if ((code && TRANSIENT_ERRORS.has(code)) || status >= 500) {
    return fail({ kind: 'transient' }, `Slack is failing (${code ?? `HTTP ${status}`}); try again later.`);
  }
  if (status === 401 || status === 403) return fail({ kind: 'auth_expired', reason: code ?? 'unauthorized' }, `${said}. Reconnect the Slack account.`);
  if (status === 413) return fail({ kind: 'invalid_content', code: 'payload_too_large' });
  return fail({ kind: 'rejected', ...(code ? { code } : {}) });
}

export interface SlackClientOptions {
  apiBase: string;
  webhookBase: string;
  timeoutMs: number;
  fetch: typeof fetch;
  now: Now;
}

export interface SlackClient {
  /** A Web API method called with a JSON body (or a form for GET-style methods); answers the `ok:true` body. */
  call(token: string, method: string, params: Json, opts?: { form?: boolean; signal?: AbortSignal }): Promise<Json>;
  /** Posts a JSON payload to an incoming webhook's path (`/services/T…/B…/…`); resolves when Slack answered `ok`. */
  webhook(path: string, payload: Json, signal?: AbortSignal): Promise<void>;
  /** Verifies a webhook exists without posting: an empty payload is answered `no_text` by a live webhook. */
  probeWebhook(path: string): Promise<void>;
  /** Step 2 of files upload v2: POSTs the bytes to the upload_url files.getUploadURLExternal handed out; Slack answers 200 `OK - <length>`. */
  uploadBytes(uploadUrl: string, bytes: Buffer, contentType: string, signal?: AbortSignal): Promise<void>;
}

export function createSlackClient(opts: SlackClientOptions): SlackClient {
  const apiBase = trimBase(opts.apiBase);
  const webhookBase = trimBase(opts.webhookBase);
  const { timeoutMs, now } = opts;
  const fail = (outcome: SlackOutcome) => mapSlackFailure(outcome, { timeoutMs, now: now() });

  async function webhookExchange(path: string, payload: Json, signal?: AbortSignal): Promise<SlackOutcome> {
    return textExchange(`${webhookBase}${path}`, { 'content-type': 'application/json' }, JSON.stringify(payload), signal);
  }

  /** A POST answered in plain text (webhooks, the upload URL); a failure keeps nothing of the URL (a secret). */
  async function textExchange(url: string, headers: Record<string, string>, body: string | Uint8Array, signal?: AbortSignal): Promise<SlackOutcome> {
    const deadline = callDeadline(timeoutMs, signal);
    try {
      const res = await opts.fetch(url, { method: 'POST', headers, body, signal: deadline.signal });
      return { kind: 'webhook', status: res.status, headers: res.headers, text: await res.text() };
    } catch {
      // The error may carry the webhook URL (a secret): nothing of it is kept.
      return { kind: 'no_response', reason: deadline.timedOut ? 'timeout' : signal?.aborted ? 'aborted' : 'network' };
    } finally {
      deadline.done();
    }
  }

  return {
    async call(token, method, params, callOpts = {}) {
      const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
      const init: RequestInit = callOpts.form
        ? { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString() }
        : { method: 'POST', headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(params) };
      const outcome = await exchangeJson(`${apiBase}/${method}`, init, { fetch: opts.fetch, timeoutMs, signal: callOpts.signal });
      if (outcome.kind === 'no_response') throw fail(outcome);
      if (outcome.status !== 200 || !isObject(outcome.body) || outcome.body.ok !== true) {
        if (outcome.status === 200 && !(isObject(outcome.body) && outcome.body.ok === false)) throw fail({ kind: 'malformed', status: 200, what: `an answer to ${method}` });
        throw fail(outcome);
      }
      return outcome.body;
    },
    async webhook(path, payload, signal) {
      const outcome = await webhookExchange(path, payload, signal);
      if (outcome.kind !== 'webhook') throw fail(outcome);
      if (outcome.status === 200 && outcome.text.trim() === 'ok') return;
      if (outcome.status === 200) throw fail({ kind: 'malformed', status: 200, what: '"ok"' });
      throw fail(outcome);
    },
    async probeWebhook(path) {
      const outcome = await webhookExchange(path, {});
      if (outcome.kind === 'webhook' && outcome.status === 400 && outcome.text.trim() === 'no_text') return;
      if (outcome.kind === 'webhook' && outcome.status >= 200 && outcome.status < 300) throw fail({ kind: 'malformed', status: outcome.status, what: 'no_text to an empty payload' });
      throw fail(outcome);
    },
    async uploadBytes(uploadUrl, bytes, contentType, signal) {
      const outcome = await textExchange(uploadUrl, { 'content-type': contentType || 'application/octet-stream' }, new Uint8Array(bytes), signal);
      if (outcome.kind !== 'webhook') throw fail(outcome);
      if (outcome.status === 200) return;
      throw fail(outcome);
    },
  };
}
