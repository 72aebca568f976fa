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
const DEFAULT_CODE: Partial<Record<HeraldErrorKind, string>> = { invalid_input: 'invalid_request', not_found: 'not_found' };

export function errorBody(err: HeraldError): Record<string, unknown> {
  const errorCode = err.errorCode ?? DEFAULT_CODE[err.kind];
  return {
    success: false,
    message: err.message,
    ...(errorCode ? { error_code: errorCode } : {}),
    ...err.details,
  };
}

export function errorMiddleware(log: (message: string, fields: Record<string, unknown>) => void) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new HeraldError('not_found', `No such endpoint: ${ctx.method} ${ctx.path}.`);
      }
    } catch (raw) {
      let err: HeraldError;
      if (raw instanceof HeraldError) err = raw;
      else if (raw instanceof PlatformError) err = fromPlatformError(raw);
      else if (isClientHttpError(raw)) err = new HeraldError('invalid_input', `Unreadable request body: ${raw.message}`, 'invalid_body');
      else {
        log('unhandled error', { method: ctx.method, path: ctx.path, error: (raw as Error).stack ?? String(raw) });
        err = new HeraldError('internal', 'Internal error. It was logged; try again later.');
      }
      ctx.status = STATUS[err.kind];
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
