import type { Context, Next } from 'koa';
import { hasStatus, networkCodeFor, type CodeWithStatus } from '../../core/domain/error-codes';
import { HeraldError, KIND_STATUS as STATUS, PlatformError, type CodeOfKind, type HeraldErrorKind } from '../../core/domain/errors';

type EdgeStatus = 400 | 405 | 413 | 415 | 431;

/**
 * A refusal of the HTTP exchange itself (method, body encoding and size, headers), which has no
 * counterpart in the core: it carries its own status.
 */
export class HttpEdgeError<S extends EdgeStatus = EdgeStatus> extends Error {
  constructor(
    readonly status: S,
    message: string,
    readonly errorCode: CodeWithStatus<S>,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpEdgeError';
  }
}

/**
 * A network's answer to a synchronous call, by what it means (connecting maps its own refusals,
 * see connectRefused): an expired authorization needs a reconnect (409 `reauth_required: true`),
 * content the network refuses is the caller's to fix (400), a paused account or a throttling
 * network says when to come back (429 with Retry-After), anything else the network refused is its
 * answer, passed on (502 with the network's message).
 */
export function fromPlatformError(err: PlatformError, now: Date): HeraldError {
  const { failure } = err;
  const said = `${err.platform}: ${err.message}`;
  switch (failure.kind) {
    case 'auth_expired':
      return new HeraldError('conflict', `${said} Reconnect the ${err.platform} account.`, 'reauth_required', { reauth_required: true, platform: err.platform });
    case 'checkpoint':
      return new HeraldError('conflict', `${said} Complete the check on ${err.platform}, then try again.`, 'account_reauth_required', { platform: err.platform });
    case 'invalid_content':
      return new HeraldError('invalid_input', said, networkCodeFor(failure.code, 400, 'invalid_content'), { platform: err.platform, ...unregistered(failure.code, 400) });
    case 'unsupported':
      return new HeraldError('invalid_input', said, 'platform_not_supported', { platform: err.platform });
    case 'restricted': {
      const seconds = Math.max(1, Math.ceil((failure.until.getTime() - now.getTime()) / 1000));
      return new HeraldError('too_many_requests', said, networkCodeFor(failure.code ?? failure.reason, 429, 'account_restricted'), {
        platform: err.platform, ...unregistered(failure.code ?? failure.reason, 429), restriction_reason: failure.reason, restricted_until: failure.until.toISOString(), retry_after_seconds: seconds,
      });
    }
    case 'rate_limited':
      return new HeraldError('too_many_requests', said, 'platform_rate_limited',
        { platform: err.platform, retry_after_seconds: Math.max(1, Math.ceil(failure.retryAfterMs / 1000)) });
    case 'transient':
      return new HeraldError('platform_rejected', `${said} Try again later.`, 'platform_unavailable', { platform: err.platform });
    case 'rejected':
      return new HeraldError('platform_rejected', said, networkCodeFor(failure.code, 502, 'platform_rejected'), { platform: err.platform, ...unregistered(failure.code, 502) });
  }
}

/** A network's own code that is not registered for this status is answered as `network_code` beside the generic one. */
const unregistered = (code: string | undefined, status: 400 | 429 | 502): { network_code?: string } =>
  code !== undefined && !hasStatus(code, status) ? { network_code: code } : {};

/** Codes for errors raised without a more specific one, so a client can always branch on `error_code`. */
const DEFAULT_CODE: { [K in HeraldErrorKind]: CodeOfKind<K> } = {
  invalid_input: 'invalid_request',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'conflict',
  too_many_requests: 'rate_limited',
  internal: 'internal_error',
  platform_rejected: 'platform_rejected',
  unavailable: 'unavailable',
};

export function errorBody(err: HeraldError | HttpEdgeError): Record<string, unknown> {
  const errorCode = err instanceof HeraldError ? err.errorCode ?? DEFAULT_CODE[err.kind] : err.errorCode;
  return { success: false, message: err.message, error_code: errorCode, ...err.details };
}

/**
 * What a router leaves unanswered: no route for the path (404), or routes for the path but not
 * for the method (405 with `Allow`, set by `allowedMethods`). A method no route uses at all
 * (PROPFIND, …) is answered like any other wrong method: it is the caller's mistake, not a 501.
 */
function unanswered(ctx: Context): HeraldError | HttpEdgeError | null {
  if (ctx.body !== undefined && ctx.body !== null) return null;
  const allow = ctx.response.get('Allow');
  if ((ctx.status === 405 || ctx.status === 501) && allow) {
    return new HttpEdgeError(405, `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}.`, 'method_not_allowed', { allowed_methods: allow.split(', ') });
  }
  if (ctx.status === 404 || ctx.status === 405 || ctx.status === 501) return new HeraldError('not_found', `No such endpoint: ${ctx.method} ${ctx.path}.`);
  return null;
}

export function errorMiddleware(log: (message: string, fields: Record<string, unknown>) => void) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      const left = unanswered(ctx);
      if (left) throw left;
    } catch (raw) {
      let err: HeraldError | HttpEdgeError;
      if (raw instanceof HeraldError || raw instanceof HttpEdgeError) err = raw;
      else if (raw instanceof PlatformError) err = fromPlatformError(raw, new Date());
      else if (isClientHttpError(raw)) err = new HeraldError('invalid_input', `Unreadable request: ${raw.message}`, 'invalid_body');
      else {
        log('unhandled error', { method: ctx.method, path: ctx.path, error: (raw as Error).stack ?? String(raw) });
        err = new HeraldError('internal', 'Internal error. It was logged; try again later.');
      }
      ctx.status = err instanceof HttpEdgeError ? err.status : STATUS[err.kind];
      const retryAfter = err.details.retry_after_seconds;
      if (typeof retryAfter === 'number') ctx.set('Retry-After', String(retryAfter));
      ctx.body = errorBody(err);
    }
  };
}

function isClientHttpError(err: unknown): err is Error & { status: number } {
  const status = (err as { status?: unknown })?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
