import type { Context } from 'koa';
import { z } from 'zod';
import { invalidInput } from '../../core/domain/errors';

/** Body fields of a JSON, urlencoded or multipart request, as one flat object. */
export function bodyFields(ctx: Context): Record<string, unknown> {
  const body = (ctx.request as unknown as { body?: unknown }).body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
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

/** Booleans from forms come as text. */
export const formBoolean = z.preprocess((v) => {
  const s = single(v);
  if (typeof s === 'boolean' || s === undefined) return s;
  const t = String(s).toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(t)) return true;
  if (['false', '0', 'no', 'off', ''].includes(t)) return false;
  return s;
}, z.boolean({ error: 'must be true or false' }).optional());

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
