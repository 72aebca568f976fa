import type { UploadRequest } from '../../core/domain/upload';
import { DEFAULT_UPLOAD_TIMING, type UploadRunner, type UploadTiming } from '../../core/ports/upload-runner';
import { beginUpload, finishUpload, publishTarget, type TargetOutcome } from '../../core/usecases/run-upload';
import { firstTargetCall, nextTargetStep, targetCallFields, type TargetCallFields } from '../../core/usecases/upload-steps';
import { prepareMedia, type PrepareMediaDeps } from '../../core/usecases/prepare-media';
import { isUnfetched } from '../../core/domain/media';

/**
 * One target's calls in the order the upload workflow makes them (both follow
 * core/usecases/upload-steps), until one is done. Only `busy` is waited out (another execution of
 * the call is running in this process); "come back later" waits are skipped.
 */
export async function runTargetCalls(publish: (call: TargetCallFields) => Promise<TargetOutcome>): Promise<void> {
  let target = firstTargetCall(true);
  for (;;) {
    const step = nextTargetStep(target, await publish(targetCallFields(target)));
    if (step.kind === 'stop') return;
    if (step.wait.kind === 'busy') {
      const { ms } = step.wait;
      await new Promise((r) => setTimeout(r, ms));
    }
    target = step.next;
  }
}

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
    await Promise.all(upload.targets.filter((t) => !upload.results[t.platform]).map(({ platform }) =>
      runTargetCalls((call) => publishTarget(deps, { ...ids, platform, ...call, attempt: 1, timing, busyAware: true }))));
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
