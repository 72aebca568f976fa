import type { Context, Next } from 'koa';
import { invalidInput } from '../../core/domain/errors';
import { PROFILE_USERNAME_MAX } from '../../core/domain/profile';
import { checkStorable } from './storable';

/**
 * Every request field, query parameter and path parameter that names a stored record, with its
 * longest value. They are checked at the edge, wherever they arrive, before any lookup: the
 * database must never see a NUL (PostgreSQL under FerretDB refuses it with a 500) or a megabyte id.
 */
export const ID_FIELDS: Readonly<Record<string, number>> = {
  username: PROFILE_USERNAME_MAX,
  user: PROFILE_USERNAME_MAX,
  profile: PROFILE_USERNAME_MAX,
  profile_username: PROFILE_USERNAME_MAX,
  request_id: 255,
  job_id: 255,
  external_id: 255,
  state: 255,
  post_id: 255,
  comment_id: 255,
  platform_post_id: 255,
};

/** Control characters and halves of a surrogate pair (text that is not valid Unicode). */
const UNSAFE = /[\p{Cc}\p{Cs}]/u;

/** Answers 400 `invalid_id` for a control character or an over-long value, saying what to send instead. */
export function checkId(field: string, value: unknown, max = ID_FIELDS[field] ?? 255): void {
  for (const one of Array.isArray(value) ? value : [value]) {
    if (typeof one !== 'string') continue;
    const found = UNSAFE.exec(one);
    const problem = found
      ? `ids are printable text without control characters; found U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at position ${found.index + 1}`
      : one.length > max ? `ids are at most ${max} characters; this one has ${one.length}` : undefined;
    if (problem) throw invalidInput(`${field}: ${problem}.`, { violations: [{ field, message: problem }] }, 'invalid_id');
  }
}

/** Checks the id fields of a body or query object. */
export function checkIdFields(fields: Record<string, unknown>): void {
  for (const field of Object.keys(ID_FIELDS)) if (field in fields) checkId(field, fields[field]);
}

/**
 * Whether the checks below can pass over a parsed query string without a look at each value: no
 * array values (repeated parameters) and no NUL in a name or a value. The id checks still run.
 */
function plainQuery(query: Record<string, unknown>): boolean {
  for (const name in query) {
    const value = query[name];
    if (typeof value !== 'string' || value.includes('\u0000') || name.includes('\u0000')) return false;
  }
  return true;
}

/** The id query parameters of every route, and NULs in any, before the route runs. */
export function queryIdGuard(ctx: Context, next: Next): Promise<void> {
  // No query string, nothing to check (ctx.query would parse '' into {}).
  if (ctx.querystring !== '') {
    const query = ctx.query;
    checkIdFields(query);
    if (!plainQuery(query)) checkStorable(query, { names: false });
  }
  return next();
}

/** For `router.param`: a path parameter that names a stored record. */
export const idParam = (field: string) => async (value: string, _ctx: Context, next: Next): Promise<unknown> => {
  checkId(field, value);
  return next();
};
