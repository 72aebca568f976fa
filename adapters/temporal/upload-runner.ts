import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { UploadRequest } from '../../core/domain/upload';
import { isUnfetched } from '../../core/domain/media';
import type { UploadRunner, UploadTiming, UploadWorkflowInput } from '../../core/ports/upload-runner';
import { SIGNALS, WORKFLOW_TYPES, workflowIds, type SignalArgs } from '../../core/ports/workflow-names';

/** Runs each upload as one Temporal workflow whose id is derived from the request id. */
export function createTemporalUploadRunner(client: Client, opts: { taskQueue: string; timing: UploadTiming }): UploadRunner {
  return {
    async start(upload: UploadRequest): Promise<void> {
      const input: UploadWorkflowInput = {
        accountId: upload.accountId,
        requestId: upload.requestId,
        // A retry sends only the platforms whose result was set aside.
        platforms: upload.targets.map((t) => t.platform).filter((p) => !upload.results[p]),
        timing: opts.timing,
        ...(upload.scheduledFor ? { notBefore: upload.scheduledFor.toISOString() } : {}),
        ...((upload.content.media ?? []).some(isUnfetched) ? { fetchMedia: true } : {}),
        // Text posts carry no media: their calls are short enough to run inside the workflow task.
        ...(upload.mediaType === 'text' ? { firstCallInline: true } : {}),
      };
      try {
        await client.workflow.start(WORKFLOW_TYPES.upload, {
          workflowId: workflowIds.upload(upload.accountId, upload.requestId, upload.retryCount ?? 0),
          taskQueue: opts.taskQueue,
          args: [input],
          // A finished upload is never run again under the same id: that would publish twice.
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
      } catch (err) {
        // Same business key, same workflow: a repeated start is the idempotent case, not an error.
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    },

    async reschedule(upload: UploadRequest): Promise<void> {
      if (!upload.scheduledFor) return;
      await client.workflow.getHandle(workflowIds.upload(upload.accountId, upload.requestId))
        .signal<SignalArgs['reschedule']>(SIGNALS.reschedule, upload.scheduledFor.toISOString());
    },

    async cancel(upload: UploadRequest): Promise<void> {
      await client.workflow.getHandle(workflowIds.upload(upload.accountId, upload.requestId)).signal<SignalArgs['cancel']>(SIGNALS.cancel);
    },

    async waitForCompletion(upload: UploadRequest, timeoutMs: number): Promise<boolean> {
      const handle = client.workflow.getHandle(workflowIds.upload(upload.accountId, upload.requestId, upload.retryCount ?? 0));
      // The abort ends the long poll when we stop waiting, so no request is left hanging on the server.
      const abort = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), timeoutMs); });
      const result = client.withAbortSignal(abort.signal, () => handle.result()).then(() => true, () => false);
      try {
        return await Promise.race([result, timeout]);
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
    },
  };
}
