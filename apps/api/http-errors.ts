import type { Context, Next } from 'koa';
import { HeraldError, PlatformError, type HeraldErrorKind } from '../../core/domain/errors';

/** The one place where core errors become HTTP statuses. */
const STATUS: Record<HeraldErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  internal: 500,
  platform_rejected: 502,
  unavailable: 503,
};

/**
 * A refusal of the HTTP exchange itself (method, body encoding and size, headers), which has no
 * counterpart in the core: it carries its own status.
 */
export class HttpEdgeError extends Error {
  constructor(
    readonly status: 400 | 405 | 413 | 415 | 431,
    message: string,
    readonly errorCode: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpEdgeError';
  }
}

/** A network refusing credentials the caller submitted is the caller's to fix (400), unless it is throttling or down. */
function fromPlatformError(err: PlatformError): HeraldError {
  const { failure } = err;
  switch (failure.kind) {
    case 'rate_limited':
      return new HeraldError('too_many_requests', `${err.platform} is rate limiting: ${err.message}`, 'platform_rate_limited',
        { retry_after_seconds: Math.ceil(failure.retryAfterMs / 1000) });
    case 'transient':
      return new HeraldError('platform_rejected', `${err.platform} did not answer properly: ${err.message}`, 'platform_unavailable');
    default:
      return new HeraldError('invalid_input', `${err.platform} refused the credentials: ${err.message}`, 'invalid_credentials');
  }
}

/** Codes for errors raised without a more specific one, so a client can always branch on `error_code`. */
const DEFAULT_CODE: Record<HeraldErrorKind, string> = {
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
      else if (raw instanceof PlatformError) err = fromPlatformError(raw);
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
