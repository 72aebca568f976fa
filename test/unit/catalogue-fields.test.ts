import type { z } from 'zod';
import { HeraldError, KIND_STATUS } from '../../core/domain/errors';
import { ERROR_CODES } from '../../core/domain/error-codes';
import { PLATFORMS } from '../../core/domain/platforms';
import { OPERATIONS } from '../../apps/api/catalogue';
import { checkField } from '../../apps/api/catalogue/mount';

/**
 * No documentary-only field: every field the catalogue declares (path, query and body of every
 * operation) is checked at the edge, so a wrong value in it is refused there, with a registered
 * status and code. A field let through unchecked (`z.any()`, or a rule that accepts anything) fails
 * this table. Some fields are read as the network named in `platform` declares them (the edit
 * fields of /posts/*): each field is tried alone and beside every `platform`.
 */

/** Values of the wrong type for any field: an object, a fraction, a nested array, a boolean, a number. */
const WRONG: unknown[] = [{ wrong: [1] }, 12345.5, [[{}]], true, 7];
const CONTEXTS: Array<Record<string, unknown>> = [{}, ...PLATFORMS.map((platform) => ({ platform }))];

type Part = 'params' | 'query' | 'body';
const rows = OPERATIONS.flatMap((op) => (['params', 'query', 'body'] as Part[]).flatMap((part) => {
  const declared = op[part] as z.ZodObject | undefined;
  return Object.entries(declared?.shape ?? {}).map(([name, field]) => ({ id: op.id, part, name, field: field as z.ZodType }));
}));

/** The status an edge refusal answers with (its kind, or the registered status of its code). */
function statusOf(failure: NonNullable<ReturnType<typeof refusal>>): number {
  if ('error' in failure) return KIND_STATUS[failure.error.kind];
  if (!failure.code) return 400;
  return [(ERROR_CODES[failure.code as keyof typeof ERROR_CODES] as { status?: number | readonly number[] }).status ?? 400].flat()[0]!;
}

/** The first refusal of a wrong value in the field, in any context; undefined when every one passes. */
function refusal(row: (typeof rows)[number]) {
  for (const context of CONTEXTS) {
    if (row.name in context) continue;
    for (const wrong of WRONG) {
      const checked = checkField(row.name, row.field, { ...context, [row.name]: wrong });
      if (!checked.ok) return checked.failure;
    }
  }
  return undefined;
}

describe('every declared field is checked at the edge', () => {
  it('covers the catalogue (its fields are many)', () => {
    expect(rows.length).toBeGreaterThan(250);
  });

  it.each(rows.map((r) => [`${r.id} ${r.part}.${r.name}`, r] as const))('%s refuses a wrong value', (_label, row) => {
    const failure = refusal(row);
    expect(failure).toBeDefined();
    if ('error' in failure!) expect(failure.error).toBeInstanceOf(HeraldError);
    expect([400, 404, 503]).toContain(statusOf(failure!));
  });
});
