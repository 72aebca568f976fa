import Redis from 'ioredis';
import type { RecordChange, RecordChangeFeed, RecordChangePublisher } from '../../core/ports/record-changes';

/** Field names kept short: one message per write of a profile or connected account. */
type Wire = { k: 'c'; id: string } | { k: 's'; a: string; u: string; p: string } | { k: 'p'; a: string; u: string };

const encode = (c: RecordChange): Wire =>
  c.kind === 'connection' ? { k: 'c', id: c.id }
    : c.kind === 'connection-slot' ? { k: 's', a: c.accountId, u: c.profileUsername, p: c.platform }
    : { k: 'p', a: c.accountId, u: c.username };

function decode(text: string): RecordChange | undefined {
  let w: Partial<Record<string, unknown>>;
  try {
    w = JSON.parse(text) as Partial<Record<string, unknown>>;
  } catch {
    return undefined;
  }
  const s = (v: unknown) => (typeof v === 'string' ? v : undefined);
  if (w.k === 'c' && s(w.id)) return { kind: 'connection', id: s(w.id)! };
  if (w.k === 's' && s(w.a) && s(w.u) && s(w.p)) return { kind: 'connection-slot', accountId: s(w.a)!, profileUsername: s(w.u)!, platform: s(w.p) as never };
  if (w.k === 'p' && s(w.a) && s(w.u)) return { kind: 'profile', accountId: s(w.a)!, username: s(w.u)! };
  return undefined;
}

/** PUBLISH on `channel` through the daemon's Redis connection; a failure is logged, not thrown. */
export function createRedisRecordChangePublisher(redis: Redis, opts: { channel: string; log?: (m: string, f: Record<string, unknown>) => void }): RecordChangePublisher {
  return {
    async publish(change) {
      try {
        await redis.publish(opts.channel, JSON.stringify(encode(change)));
      } catch (err) {
        opts.log?.('record change not announced (readers see it when their cache entry expires)', { kind: change.kind, error: (err as Error).message });
      }
    },
  };
}

/**
 * A subscriber connection of its own (a subscribed connection can do nothing else). `live()` is
 * true only while subscribed: from the moment the connection drops, readers stop serving from
 * memory and are reset, and they start again once SUBSCRIBE has been confirmed anew, so an
 * announcement missed while disconnected never leaves a stale entry behind.
 */
export function createRedisRecordChangeFeed(url: string, opts: { channel: string; connectionName?: string; log?: (m: string, f: Record<string, unknown>) => void }): RecordChangeFeed & { close(): Promise<void> } {
  const sub = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: null, autoResubscribe: false, connectionName: opts.connectionName ?? 'herald-record-changes' });
  const listeners = new Set<{ onChange: (c: RecordChange) => void; onReset: () => void }>();
  let live = false;
  let closed = false;
  const down = () => {
    if (!live) return;
    live = false;
    for (const l of [...listeners]) l.onReset();
  };
  sub.on('ready', () => {
    sub.subscribe(opts.channel).then(() => {
      if (closed) return;
      // Whatever was held before the drop went with `down()`; a first subscribe resets nothing.
      live = true;
    }, (err: Error) => opts.log?.('record change subscription failed', { error: err.message }));
  });
  sub.on('close', down);
  sub.on('end', down);
  sub.on('error', (err: Error) => opts.log?.('record change feed error', { error: err.message }));
  sub.on('message', (channel: string, text: string) => {
    if (channel !== opts.channel) return;
    const change = decode(text);
    if (!change) return;
    for (const l of [...listeners]) l.onChange(change);
  });
  return {
    subscribe(onChange, onReset) {
      const l = { onChange, onReset };
      listeners.add(l);
      return () => listeners.delete(l);
    },
    live: () => live,
    async close() {
      closed = true;
      down();
      sub.disconnect();
    },
  };
}
