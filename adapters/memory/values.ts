/**
 * What the in-memory repositories share to behave like the Mongo ones: values are copied in and
 * out, so callers never share state with the store, and object properties set to `undefined` are
 * dropped, as the Mongo adapter does.
 */

/** Deep copy of plain data (objects, arrays, Dates); drops `undefined` object properties. */
export function copy<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map((v) => copy(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) out[k] = copy(v);
    }
    return out as T;
  }
  return value;
}

/** A map key made of several parts, unambiguous whatever the parts contain. */
export const key = (...parts: string[]): string => JSON.stringify(parts);

export function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
