import type { Clock } from '../ports/system';

/**
 * Records read from storage, kept in one process for `ttlMs` (least recently used evicted past
 * `maxEntries`). Misses are not kept. Every drop moves an epoch: a read that was in flight while a
 * write or a drop happened is neither stored nor joined, so a slow read never brings back what a
 * write replaced. Concurrent misses of one key share one read. Callers get copies.
 */
export class KeyedReadCache<V extends object> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly pending = new Map<string, { epoch: number; read: Promise<V | null> }>();
  private epoch = 0;
  private readonly maxEntries: number;

  constructor(private readonly opts: { ttlMs: number; maxEntries: number; clock: Clock; onDrop?: (key: string, value: V) => void }) {
    this.maxEntries = Math.max(1, opts.maxEntries);
  }

  get size(): number {
    return this.entries.size;
  }

  async find(key: string, read: () => Promise<V | null>): Promise<V | null> {
    const now = this.opts.clock.now().getTime();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now) {
      // Most recently used last: the oldest is evicted first.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return { ...entry.value };
    }
    if (entry) this.remove(key);
    const joined = this.pending.get(key);
    if (joined && joined.epoch === this.epoch) return copy(await joined.read);
    const epoch = this.epoch;
    const reading = read();
    this.pending.set(key, { epoch, read: reading });
    try {
      const value = await reading;
      if (value && epoch === this.epoch) this.store(key, value, this.opts.clock.now().getTime() + this.opts.ttlMs);
      return copy(value);
    } finally {
      if (this.pending.get(key)?.read === reading) this.pending.delete(key);
    }
  }

  /** Drops `key`; reads in flight are not stored. */
  drop(key: string): void {
    this.epoch += 1;
    this.remove(key);
  }

  /** Drops every key starting with `prefix`. */
  dropPrefix(prefix: string): void {
    this.epoch += 1;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.remove(key);
  }

  /** Drops everything (announcements may have been missed). */
  clear(): void {
    this.epoch += 1;
    for (const key of [...this.entries.keys()]) this.remove(key);
  }

  /** Invalidates reads in flight without dropping anything (a write whose key is unknown here). */
  bump(): void {
    this.epoch += 1;
  }

  private store(key: string, value: V, expiresAt: number): void {
    this.remove(key);
    this.entries.set(key, { value: { ...value }, expiresAt });
    while (this.entries.size > this.maxEntries) this.remove(this.entries.keys().next().value as string);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.opts.onDrop?.(key, entry.value);
  }
}

const copy = <V extends object>(value: V | null): V | null => (value ? { ...value } : null);
