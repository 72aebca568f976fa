/**
 * Cursor paging the way the networks do it: a page of a newest-first list, and an opaque cursor
 * naming the last item handed out, so the next page starts right after it even when newer items
 * arrived in between. A cursor that names no item is refused by the caller (`undefined` here).
 */
export interface SimPage<T> { items: T[]; next?: string }

export const encodeCursor = (key: string): string => Buffer.from(`after:${key}`).toString('base64url');
export function decodeCursor(cursor: string): string | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return text.startsWith('after:') ? text.slice('after:'.length) : undefined;
}

/** `items` newest first; `after` a cursor from a previous page; undefined when the cursor is unknown. */
export function pageAfter<T>(items: readonly T[], keyOf: (item: T) => string, limit: number, after?: string): SimPage<T> | undefined {
  let start = 0;
  if (after !== undefined && after !== '') {
    const key = decodeCursor(after);
    const at = key === undefined ? -1 : items.findIndex((i) => keyOf(i) === key);
    if (at < 0) return undefined;
    start = at + 1;
  }
  const slice = items.slice(start, start + limit);
  const more = start + limit < items.length;
  return { items: slice, ...(more && slice.length ? { next: encodeCursor(keyOf(slice[slice.length - 1]!)) } : {}) };
}

/** Graph `fields` with nested edges (`id,children{id,media_type}`): top-level names → their sub-fields. */
export function graphFields(raw: string | undefined, fallback: string[]): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  if (!raw) { for (const f of fallback) out.set(f, undefined); return out; }
  let depth = 0;
  let current = '';
  const flush = () => {
    const part = current.trim();
    current = '';
    if (!part) return;
    const brace = part.indexOf('{');
    if (brace < 0) out.set(part, undefined);
    else out.set(part.slice(0, brace).trim(), part.slice(brace + 1, part.lastIndexOf('}')));
  };
  for (const ch of raw) {
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    if (ch === ',' && depth === 0) flush(); else current += ch;
  }
  flush();
  return out;
}

/** The object with only the wanted fields (nested edges picked with their own sub-fields). */
export function pickGraph(obj: Record<string, unknown>, fields: Map<string, string | undefined>, nested: Record<string, (sub: string | undefined) => unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, sub] of fields) {
    const value = nested[name] ? nested[name]!(sub) : obj[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A Graph list answer: `{data, paging:{cursors:{before, after}, next?}}`, `next` only when there is more. */
export function graphListBody(origin: string, path: string, query: Record<string, string>, data: unknown[], page: SimPage<unknown>, firstKey?: string): Record<string, unknown> {
  const cursors = { before: firstKey ? encodeCursor(firstKey) : '', after: page.next ?? (data.length ? encodeCursor('end') : '') };
  const next = page.next ? `${origin}${path}?${new URLSearchParams({ ...query, after: page.next })}` : undefined;
  return { data, paging: { cursors, ...(next ? { next } : {}) } };
}
