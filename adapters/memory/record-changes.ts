import type { RecordChange, RecordChangeFeed, RecordChangePublisher } from '../../core/ports/record-changes';

/** One process's announcements, delivered synchronously to its own subscribers (unit tests). */
export function createMemoryRecordChanges(): RecordChangePublisher & RecordChangeFeed & { reset(): void; setLive(live: boolean): void } {
  const listeners = new Set<{ onChange: (c: RecordChange) => void; onReset: () => void }>();
  let live = true;
  return {
    async publish(change) {
      for (const l of [...listeners]) l.onChange(change);
    },
    subscribe(onChange, onReset) {
      const l = { onChange, onReset };
      listeners.add(l);
      return () => listeners.delete(l);
    },
    live: () => live,
    reset() {
      for (const l of [...listeners]) l.onReset();
    },
    setLive(value) {
      live = value;
      if (!value) for (const l of [...listeners]) l.onReset();
    },
  };
}
