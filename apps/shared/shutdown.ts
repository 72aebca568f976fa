import { log } from './compose';

/**
 * Runs `stop` once on SIGTERM/SIGINT. Past `graceMs`, `force` runs and the process exits anyway,
 * so a stuck request or activity cannot keep a daemon alive forever.
 */
export function onShutdown(graceMs: number, stop: () => Promise<void>, force?: () => void): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('shutting down', { signal, grace_ms: graceMs });
    const timer = setTimeout(() => {
      log('grace period over: forcing exit', {});
      force?.();
      process.exit(1);
    }, graceMs);
    timer.unref();
    stop().then(() => {
      log('stopped cleanly', {});
      process.exit(0);
    }, (err) => {
      log('error while stopping', { error: (err as Error).message });
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGINT', () => handler('SIGINT'));
}
