import type { UploadRequest } from '../../core/domain/upload';
import { DEFAULT_UPLOAD_TIMING, type UploadRunner, type UploadTiming } from '../../core/ports/upload-runner';
import { beginUpload, finishUpload, publishTarget } from '../../core/usecases/run-upload';
import { prepareMedia, type PrepareMediaDeps } from '../../core/usecases/prepare-media';
import { isUnfetched } from '../../core/domain/media';

/**
 * Runs uploads in-process with the same steps as the workflow (no durability): for fast unit
 * tests of the core. "Come back later" waits are skipped.
 */
export function createInlineUploadRunner(deps: PrepareMediaDeps, timing: UploadTiming = DEFAULT_UPLOAD_TIMING): UploadRunner & { settled(): Promise<void> } {
  const running = new Map<string, Promise<void>>();
  const run = async (upload: UploadRequest) => {
    const ids = { accountId: upload.accountId, requestId: upload.requestId };
    const publishable = (upload.content.media ?? []).some(isUnfetched) ? (await prepareMedia(deps, ids)).publishable : true;
    if (upload.scheduledFor && publishable) return;
    if (!(await beginUpload(deps, ids))) return;
    await Promise.all(upload.targets.filter((t) => !upload.results[t.platform]).map(async ({ platform }) => {
      let round = 0;
      let step = 0;
      let resume: Record<string, unknown> | undefined;
      let waitOutPause = true;
      for (;;) {
        const outcome = await publishTarget(deps, { ...ids, platform, round, step, attempt: 1, timing, busyAware: true, ...(resume ? { resume } : {}), ...(waitOutPause ? { waitOutPause } : {}) });
        if (outcome.kind === 'done') return;
        if (outcome.kind === 'busy') {
          await new Promise((r) => setTimeout(r, outcome.afterMs));
          continue;
        }
        if (outcome.kind === 'paused') [round, step, resume, waitOutPause] = [round + 1, 0, undefined, false];
        else if (outcome.kind === 'retry') [round, step, resume] = [round + 1, 0, undefined];
        else [step, resume] = [step + 1, outcome.state];
      }
    }));
    await finishUpload(deps, ids);
  };
  const key = (u: UploadRequest) => `${u.accountId}:${u.requestId}:${u.retryCount ?? 0}`;
  return {
    async start(upload) {
      if (!running.has(key(upload))) running.set(key(upload), run(upload));
    },
    async waitForCompletion(upload, timeoutMs) {
      const job = running.get(key(upload));
      if (!job) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), timeoutMs); });
      try {
        return await Promise.race([job.then(() => true), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    // Scheduled uploads are not timed in memory: unit tests drive them through the use cases.
    async reschedule() {},
    async cancel() {},
    async settled() {
      await Promise.all(running.values());
    },
  };
}
