import type { Storage } from '../../core/ports/storage';
import type { Clock } from '../../core/ports/system';
import type { UploadRunner } from '../../core/ports/upload-runner';

/**
 * Accepted uploads are stored before their workflow starts. If the API died or Temporal was down
 * in between, the upload would sit in `pending`: this loop starts those workflows. It also
 * removes expired OAuth states.
 */
export function startPendingReconciler(opts: {
  storage: Storage;
  runner: UploadRunner;
  clock: Clock;
  log: (message: string, fields: Record<string, unknown>) => void;
  intervalMs: number;
  pendingAfterMs: number;
}): { stop(): void } {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const stale = await opts.storage.uploads.listStalePending(new Date(opts.clock.now().getTime() - opts.pendingAfterMs), 100);
      for (const upload of stale) {
        await opts.runner.start(upload);
        opts.log('reconciler ensured the workflow of a pending upload', { request_id: upload.requestId });
      }
      // Expiry is a field plus this cleanup, since FerretDB has no TTL indexes.
      await opts.storage.oauthStates.deleteExpired(opts.clock.now());
    } catch (err) {
      opts.log('reconciler pass failed', { error: (err as Error).message });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
