import type { Context } from 'koa';
import { z } from 'zod';
import { invalidInput, redditUnavailable } from '../../core/domain/errors';
import { UNAVAILABLE_PLATFORMS } from '../../core/domain/platforms';
import { readBody } from './body';
import { checkIdFields } from './ids';
import { checkStorable } from './storable';

/**
 * Body fields of a JSON, urlencoded or multipart request, as one flat object, with their ids
 * checked and nothing the database cannot store. A body that could not be read answers here
 * (400, 413 or 415).
 */
export function bodyFields(ctx: Context): Record<string, unknown> {
  const fields = readBody(ctx);
  checkIdFields(fields);
  checkStorable(fields);
  return fields;
}

/** Form fields may arrive repeated (arrays) where one value is meant: take the last. */
export function single(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** `platform[]` as repeated form fields, a JSON array, or a comma list. */
export function list(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
}

/** Every text inside a platform field (a string, a comma list, an array, a form's nested object), lower-cased. */
function platformTexts(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((v) => v.trim().toLowerCase());
  if (Array.isArray(value)) return value.flatMap(platformTexts);
  if (value && typeof value === 'object') return Object.values(value).flatMap(platformTexts);
  return [];
}

/**
 * The spec's first rule for reddit: every publish, connect and comment call naming it answers
 * 503 `reddit_unavailable` before anything else about the request is checked, however the name
 * is spelled or sent.
 */
export function refuseUnavailablePlatforms(...values: unknown[]): void {
  if (values.flatMap(platformTexts).some((p) => (UNAVAILABLE_PLATFORMS as readonly string[]).includes(p))) throw redditUnavailable();
}

/** A boolean as forms send it (text: true/false, 1/0, yes/no, on/off); anything else as it came. */
export function readFormBoolean(v: unknown): unknown {
  const s = single(v);
  if (typeof s === 'boolean' || s === undefined) return s;
  const t = String(s).toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(t)) return true;
  if (['false', '0', 'no', 'off', ''].includes(t)) return false;
  return s;
}

/** Booleans from forms come as text. */
export const formBoolean = z.preprocess(readFormBoolean, z.boolean({ error: 'must be true or false' }).optional());

/** Parses with a schema; a failure answers 400 naming every offending field. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const violations = result.error.issues.map((issue) => ({
    field: issue.path.join('.') || '(body)',
    message: issue.message,
  }));
  throw invalidInput(violations.map((v) => `${v.field}: ${v.message}`).join('; '), { violations });
}
