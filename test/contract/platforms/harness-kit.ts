/**
 * Small helpers for a network's own contract file that runs the shared contract (shared-contract.ts)
 * next to its network-specific cases: a harness whose simulator and adapter live between start and
 * stop, and posts with settings resolved the way the core resolves them.
 */
import type { MediaKind } from '../../../core/domain/platforms';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaRef, PlatformAdapter, PublishPost } from '../../../core/ports/platform';
import type { PlatformHarness } from './shared-contract';

let serial = 0;
/** A text no network has seen yet. */
export const unique = (text: string): string => `${text} #${++serial}`;

/** Settings as the core hands them to an adapter: canonical names, types converted, defaults applied. */
export function settingsFor(adapter: PlatformAdapter, kind: MediaKind, fields: Record<string, unknown>, mediaCount: number): Record<string, unknown> {
  const d = adapter.descriptor;
  const resolved = resolveSettings(d.id, d.settings, fields, { endpoint: kind, mediaCount });
  if (resolved.violations.length) throw new Error(`${d.id} settings are invalid: ${JSON.stringify(resolved.violations)}`);
  return resolved.values;
}

export function postOf(adapter: PlatformAdapter, kind: MediaKind, title: string, media: MediaRef[] = [], fields: Record<string, unknown> = {}): PublishPost {
  return { kind, title: unique(title), media, settings: settingsFor(adapter, kind, fields, media.length) };
}

/** A harness whose simulator and adapter exist between start and stop (the simulator is closed at stop). */
export function simulatedHarness<S extends { close(): Promise<void>; reset(): void; readonly requests: unknown[] }>(
  base: Omit<PlatformHarness, 'start' | 'stop' | 'reset' | 'adapter' | 'requestCount'> & { start(): Promise<{ sim: S; adapter: PlatformAdapter }> },
): PlatformHarness & { sim(): S } {
  let sim: S | undefined;
  let adapter: PlatformAdapter | undefined;
  const get = () => {
    if (!sim) throw new Error(`${base.name} simulator is not running`);
    return sim;
  };
  const { start, ...rest } = base;
  return {
    ...rest,
    sim: get,
    async start() {
      ({ sim, adapter } = await start());
    },
    async stop() {
      await sim?.close();
      sim = undefined;
    },
    reset: () => get().reset(),
    requestCount: () => get().requests.length,
    get adapter() {
      if (!adapter) throw new Error(`${base.name} adapter is not built`);
      return adapter;
    },
  };
}
