import type { PagePosition } from '../../core/domain/page-cursor';
import type { ListPage } from '../../core/ports/storage';

/**
 * A page of `sorted` (already in the list's order) by offset or after a position, as the Mongo
 * adapter's bucket lists page (adapters/mongo/bucket-list.ts): `next` is the last item's position
 * when more follow. `desc` lists are newest first (time, then id, descending), `asc` the reverse.
 */
export function pageSorted<T>(
  sorted: T[], position: (item: T) => { t: number; id: string },
  page: { limit: number; offset?: number; after?: PagePosition }, order: 'asc' | 'desc' = 'desc',
): ListPage<T> {
  const limit = Math.max(0, Math.floor(page.limit));
  let from = Math.max(0, Math.floor(page.offset ?? 0));
  if (page.after) {
    const { t, id } = page.after;
    const comesAfter = (item: T) => {
      const p = position(item);
      return order === 'asc' ? p.t > t || (p.t === t && p.id > id) : p.t < t || (p.t === t && p.id < id);
    };
    from = sorted.findIndex(comesAfter);
    if (from < 0) from = sorted.length;
  }
  const items = sorted.slice(from, from + limit);
  const last = items[items.length - 1];
  const next = from + limit < sorted.length && last
    ? { hour: new Date(position(last).t).toISOString().slice(0, 13), ...position(last) }
    : undefined;
  return { items, total: sorted.length, ...(next ? { next } : {}) };
}

/** Newest first: time, then id, descending (the bucket lists' order). */
export const newestFirst = (a: { t: number; id: string }, b: { t: number; id: string }): number =>
  b.t - a.t || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
