import { WorkflowIdReusePolicy, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { MediaJobRunner, MediaJobTiming } from '../../core/ports/media-job-runner';
import { WORKFLOW_TYPES, workflowIds } from '../../core/ports/workflow-names';

/** Media jobs as Temporal workflows (`media:<job id>`) on the media task queue. */
export function createTemporalMediaJobRunner(client: Client, opts: { taskQueue: string; timing: MediaJobTiming }): MediaJobRunner {
  return {
    async start(jobId) {
      await client.workflow.start(WORKFLOW_TYPES.mediaJob, {
        workflowId: workflowIds.mediaJob(jobId),
        taskQueue: opts.taskQueue,
        args: [{ jobId, ...opts.timing }],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
    },
    async cancel(jobId) {
      try {
        await client.workflow.getHandle(workflowIds.mediaJob(jobId)).cancel();
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    },
  };
}
