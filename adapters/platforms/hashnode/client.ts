/**
 * Hashnode's GraphQL API (apidocs.hashnode.com): one endpoint, the personal access token in the
 * Authorization header (no scheme), `{query, variables}` bodies. GraphQL answers failures as
 * `{errors:[{message, extensions:{code}}], data}`, mostly with HTTP 200: THE one place they get a
 * meaning is mapHashnodeFailure.
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, malformedAnswer, noResponseMessage, retryAfterMs, str, type HttpExchange, type Json, type FailureContext, type Now,
} from '../kit/http';

export const HASHNODE_API_URL = 'https://gql.hashnode.com';
export const DEFAULT_TIMEOUT_MS = 30_000;

export type HashnodeOutcome =
  | HttpExchange
  | { kind: 'malformed'; status: number; what: string }
  /** A GraphQL answer carrying `errors` (whatever its HTTP status). */
  | { kind: 'graphql'; status: number; headers: Headers; code?: string; message: string };

/** The first GraphQL error of a body: its message and `extensions.code`. */
export function firstGraphqlError(body: unknown): { code?: string; message: string } | undefined {
  if (!isObject(body) || !Array.isArray(body.errors) || !body.errors.length) return undefined;
  const first = isObject(body.errors[0]) ? body.errors[0] : {};
  const extensions = isObject(first.extensions) ? first.extensions : {};
  return { code: str(extensions.code), message: str(first.message) ?? 'GraphQL error' };
}

/**
 * The one place Hashnode's answers get a meaning: by the GraphQL error code (UNAUTHENTICATED,
 * FORBIDDEN, NOT_FOUND, BAD_USER_INPUT, GRAPHQL_VALIDATION_FAILED, TOO_MANY_REQUESTS,
 * INTERNAL_SERVER_ERROR), else by HTTP status.
 */
export function mapHashnodeFailure(outcome: HashnodeOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  if (outcome.kind === 'no_response') return new PlatformError('hashnode', { kind: 'transient' }, noResponseMessage('Hashnode', outcome, timeoutMs));
  if (outcome.kind === 'malformed') return malformedAnswer('hashnode', 'Hashnode', outcome, 'the publication\'s posts');
  const { status, headers } = outcome;
  const error = outcome.kind === 'graphql' ? outcome : { code: undefined, message: `HTTP ${status}` };
  const said = `Hashnode: ${error.message}`;
  const upstream = { status, ...(error.code ? { code: error.code } : {}) };
  const code = error.code;
  if (code === 'UNAUTHENTICATED' || status === 401) {
    return new PlatformError('hashnode', { kind: 'auth_expired', reason: 'token_revoked' },
      `${said}. The personal access token was revoked; reconnect with a new one (hashnode.com/settings/developer).`, upstream);
  }
  if (code === 'TOO_MANY_REQUESTS' || status === 429) return new PlatformError('hashnode', { kind: 'rate_limited', retryAfterMs: retryAfterMs(headers, now, 60_000) }, said, upstream);
  if (code === 'FORBIDDEN' || status === 403) return new PlatformError('hashnode', { kind: 'rejected', code: 'forbidden' }, said, upstream);
  if (code === 'NOT_FOUND' || status === 404) return new PlatformError('hashnode', { kind: 'rejected', code: 'not_found' }, said, upstream);
  if (code === 'BAD_USER_INPUT') return new PlatformError('hashnode', { kind: 'invalid_content' }, said, upstream);
  if (code === 'INTERNAL_SERVER_ERROR' || status >= 500) return new PlatformError('hashnode', { kind: 'transient' }, `Hashnode is failing (${code ?? `HTTP ${status}`}); try again later.`, upstream);
  // GRAPHQL_VALIDATION_FAILED and the rest: Herald sent something Hashnode does not take.
  return new PlatformError('hashnode', { kind: 'rejected', ...(code ? { code: code.toLowerCase() } : {}) }, said, upstream);
}

export interface HashnodeClient {
  /** One operation; answers `data`, throws the mapped failure for errors, no answer or a body without data. */
  run(token: string, query: string, variables: Json, what: string, signal?: AbortSignal): Promise<Json>;
  fail(outcome: HashnodeOutcome): PlatformError;
}

export function createHashnodeClient(opts: { apiUrl: string; timeoutMs: number; fetch: typeof fetch; now: Now }): HashnodeClient {
  const fail = (outcome: HashnodeOutcome) => mapHashnodeFailure(outcome, { timeoutMs: opts.timeoutMs, now: opts.now() });
  return {
    fail,
    async run(token, query, variables, what, signal) {
      const outcome = await exchangeJson(opts.apiUrl, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query, variables }),
      }, { fetch: opts.fetch, timeoutMs: opts.timeoutMs, signal });
      if (outcome.kind === 'no_response') throw fail(outcome);
      const error = firstGraphqlError(outcome.body);
      if (error) throw fail({ kind: 'graphql', status: outcome.status, headers: outcome.headers, ...error });
      if (outcome.status < 200 || outcome.status >= 300) throw fail(outcome);
      if (!isObject(outcome.body) || !isObject(outcome.body.data)) throw fail({ kind: 'malformed', status: outcome.status, what });
      return outcome.body.data;
    },
  };
}
