/**
 * What the Meta Graph-style APIs (Instagram with Instagram Login, Threads) have in common: calls with
 * the token in a Bearer header and POST parameters as a form, ids, the stored credentials, the 60-day
 * token's exchange and renewal, container polling, and reading the Graph error shape
 * `{error:{message,type,code,error_subcode,is_transient,fbtrace_id}}`; Facebook Pages shares the
 * throttling-header reading (`metaRetryAfterMs`). Token expiries and processing deadlines are dated
 * by the caller's clock. Nothing here gives an answer a meaning: every failure goes to the adapter's
 * own failure-mapping function, passed in as `fail`.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountIdentity, PlatformCredentials, PublishStep } from '../../../core/ports/platform';
import { exchangeJson, formPost, isObject, systemNow, type HttpExchange, type Json, type Now } from './http';

/** Graph API throttling codes. */
export const META_RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80002]);
/** 190 subcodes (Graph API error handling): why the token stopped working. */
export const META_TOKEN_SUBCODE_REASONS: Record<number, string> = { 458: 'app_removed', 460: 'password_changed', 463: 'token_expired', 464: 'unconfirmed_user', 467: 'token_invalid' };
/** Long-lived tokens last 60 days when the answer does not say. */
const DEFAULT_TOKEN_SECONDS = 60 * 86400;

/** A 2xx whose body is not what the call returns. */
export type MetaMalformed = { kind: 'malformed'; status: number; what: string };

/**
 * Meta's throttling headers (X-Business-Use-Case-Usage, X-App-Usage, …) carry
 * `estimated_time_to_regain_access` in minutes; Retry-After in seconds when a proxy sends it.
 */
export function metaRetryAfterMs(headers: Headers, usageHeaders: readonly string[], fallbackMs: number): number {
  let minutes = 0;
  for (const name of usageHeaders) {
    const raw = headers.get(name);
    if (!raw) continue;
    try {
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (isObject(v)) {
          const t = Number(v.estimated_time_to_regain_access);
          if (Number.isFinite(t)) minutes = Math.max(minutes, t);
          Object.values(v).forEach(walk);
        }
      };
      walk(JSON.parse(raw));
    } catch { /* a malformed header says nothing */ }
  }
  if (minutes > 0) return minutes * 60_000;
  const seconds = Number.parseFloat(headers.get('retry-after') ?? '');
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds * 1000) : fallbackMs;
}

/** The parts of a Graph `{error:{…}}` body the failure mappings classify by. */
export interface MetaGraphError {
  error: Json;
  code: number;
  subcode: number;
  /** error_user_msg, else message, else the HTTP status. */
  detail: string;
  /** `${network}: ${detail}`. */
  said: string;
  upstream: { status: number; code: string | number };
}

/** The Graph error of an answer's body, or undefined when the body has no `error` object. */
export function readMetaGraphError(body: Json, status: number, network: string): MetaGraphError | undefined {
  const error = isObject(body.error) ? body.error : undefined;
  if (!error) return undefined;
  const code = typeof error.code === 'number' ? error.code : Number(error.code);
  const subcode = typeof error.error_subcode === 'number' ? error.error_subcode : Number(error.error_subcode ?? NaN);
  const detail = typeof error.error_user_msg === 'string' && error.error_user_msg ? error.error_user_msg
    : typeof error.message === 'string' && error.message ? error.message : `HTTP ${status}`;
  return { error, code, subcode, detail, said: `${network}: ${detail}`, upstream: { status, code: Number.isFinite(subcode) ? `${code}/${subcode}` : code } };
}

/** The stored token and account id; a missing one means the connection must be made again. */
export function readMetaAccount(credentials: PlatformCredentials, platform: string, network: string, userIdKey: string): { token: string; userId: string } {
  const token = credentials.access_token;
  const userId = credentials[userIdKey];
  if (!token || !userId) {
    throw new PlatformError(platform, { kind: 'auth_expired', reason: 'credentials_missing' }, `The stored ${network} connection is incomplete; reconnect the account.`);
  }
  return { token, userId };
}

/** The consent screen's URL: the parameters in the order given. */
export function metaAuthorizeUrl(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/** The account's identity from a `/me` answer; undefined without an id or a username. */
export function readMetaIdentity(me: Json, idField: string, pictureField: string): AccountIdentity | undefined {
  const raw = me[idField];
  const id = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
  const username = typeof me.username === 'string' ? me.username : '';
  if (!id || !username) return undefined;
  const picture = me[pictureField];
  return {
    platformUserId: id,
    handle: username,
    displayName: typeof me.name === 'string' && me.name ? me.name : username,
    avatarUrl: typeof picture === 'string' ? picture : '',
  };
}

/** When a token answered with `expires_in` (seconds) at `now` stops working, as ISO text. */
export function metaTokenExpiresAt(expiresIn: unknown, now: Date): string {
  const seconds = Number(expiresIn);
  return new Date(now.getTime() + (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TOKEN_SECONDS) * 1000).toISOString();
}

/** The next poll of a publish in progress, or the adapter's failure once processing took too long. */
export function metaWaitStep(next: { startedAt: number; pollMs: number }, maxProcessingMs: number, timedOut: (waitedMs: number) => PlatformError, now: Date): PublishStep {
  const waited = now.getTime() - next.startedAt;
  if (waited > maxProcessingMs) throw timedOut(waited);
  return { kind: 'wait', afterMs: next.pollMs, state: next as unknown as Record<string, unknown> };
}

/** The permalink of a published post; a failure to read it becomes a warning, never a failed post. */
export async function readMetaPermalink(read: () => Promise<Json>, warnings: string[]): Promise<string | undefined> {
  try {
    const body = await read();
    return typeof body.permalink === 'string' ? body.permalink : undefined;
  } catch (err) {
    // Published already: a missing link must not turn the post into a failure.
    warnings.push(`The post was published but its link could not be read: ${(err as Error).message}`);
    return undefined;
  }
}

export interface MetaGraphClientOptions<C> {
  /** The API's origin without a trailing slash: the token endpoints live at its root. */
  apiBase: string;
  apiVersion: string;
  timeoutMs: number;
  fetch: typeof fetch;
  /** The adapter's failure mapping, with the context of the call that failed. */
  fail: (outcome: HttpExchange | MetaMalformed, ctx: C) => PlatformError;
  /** The context of calls that name none. */
  baseCtx: C;
  /** The clock of token expiries (default: the system's). */
  now?: Now;
}

export interface MetaGraphClient<C> {
  /** One exchange; non-2xx and no answer leave through `fail`, a 2xx without a JSON object as malformed. */
  send(url: string, init: RequestInit, what: string, ctx?: C, signal?: AbortSignal): Promise<Json>;
  /** Graph call with the token in the Authorization header (kept out of URLs); POST params as a form, others in the query. */
  graphCall(method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string>, token: string, what: string, ctx?: C, signal?: AbortSignal): Promise<Json>;
  /** A form POST without a token (the code exchange). */
  postForm(url: string, params: Record<string, string>, what: string, ctx?: C): Promise<Json>;
  /** The `id` of an answer, as text; a missing one is malformed. */
  idOf(body: Json, what: string): string;
  /** Short-lived token → 60-day token at `/access_token` (`ig_exchange_token`, `th_exchange_token`). */
  exchangeForLongLived(grantType: string, clientSecret: string, shortToken: string, ctx?: C): Promise<Json & { access_token: string }>;
  /** Renews the 60-day token at `/refresh_access_token`; the token that comes back replaces the stored one. */
  refreshLongLived(grantType: string, token: string, credentials: PlatformCredentials, ctx?: C): Promise<PlatformCredentials>;
}

export function createMetaGraphClient<C>(opts: MetaGraphClientOptions<C>): MetaGraphClient<C> {
  const { apiBase, timeoutMs, fail, baseCtx } = opts;
  const now = opts.now ?? systemNow;
  const graph = `${apiBase}/${opts.apiVersion}`;
  const malformed = (what: string, ctx: C = baseCtx, status = 200) => fail({ kind: 'malformed', status, what }, ctx);

  async function send(url: string, init: RequestInit, what: string, ctx: C = baseCtx, signal?: AbortSignal): Promise<Json> {
    const outcome = await exchangeJson(url, init, { fetch: opts.fetch, timeoutMs, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw fail(outcome, ctx);
    if (!isObject(outcome.body)) throw malformed(what, ctx, outcome.status);
    return outcome.body;
  }

  const getJson = (url: string, what: string, ctx: C) => send(url, { method: 'GET', headers: { accept: 'application/json' } }, what, ctx);

  return {
    send,
    graphCall(method, path, params, token, what, ctx, signal) {
      const query = method !== 'POST' && Object.keys(params).length ? `?${new URLSearchParams(params)}` : '';
      return send(`${graph}${path}${query}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json',
          ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(method === 'POST' ? { body: new URLSearchParams(params).toString() } : {}),
      }, what, ctx, signal);
    },
    postForm(url, params, what, ctx) {
      return send(url, formPost(params), what, ctx);
    },
    idOf(body, what) {
      const id = typeof body.id === 'string' ? body.id : typeof body.id === 'number' ? String(body.id) : '';
      if (!id) throw malformed(what);
      return id;
    },
    async exchangeForLongLived(grantType, clientSecret, shortToken, ctx) {
      const what = 'a long-lived token';
      const long = await getJson(`${apiBase}/access_token?${new URLSearchParams({
        grant_type: grantType, client_secret: clientSecret, access_token: shortToken,
      })}`, what, ctx ?? baseCtx);
      if (typeof long.access_token !== 'string') throw malformed(what);
      return long as Json & { access_token: string };
    },
    async refreshLongLived(grantType, token, credentials, ctx) {
      const what = 'a refreshed token';
      const renewed = await getJson(`${apiBase}/refresh_access_token?${new URLSearchParams({ grant_type: grantType, access_token: token })}`, what, ctx ?? baseCtx);
      if (typeof renewed.access_token !== 'string') throw malformed(what);
      return { ...credentials, access_token: renewed.access_token, expires_at: metaTokenExpiresAt(renewed.expires_in, now()) };
    },
  };
}
