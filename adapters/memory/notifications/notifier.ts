import type { HeraldEvent, Notifier } from '../../../core/ports/notifications';

/** Keeps emitted events in memory, once per delivery key. For unit tests and local runs. */
export function createMemoryNotifier(): Notifier & { events: HeraldEvent[] } {
  const seen = new Set<string>();
  const events: HeraldEvent[] = [];
  return {
    events,
    async emit(event: HeraldEvent, deliveryKey: string): Promise<void> {
      if (seen.has(deliveryKey)) return;
      seen.add(deliveryKey);
      events.push(event);
    },
  };
}
