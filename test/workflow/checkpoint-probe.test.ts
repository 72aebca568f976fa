import { ApplicationFailure } from '@temporalio/activity';
import { WORKFLOW_TYPES } from '../../core/ports/workflow-names';
import type { CheckpointProbeOutcome } from '../../core/ports/checkpoint-probes';
import type { CheckpointProbeActivities } from '../../workflows/activities/checkpoint-probe';
import { activitiesIn, countOf, historyOf, inputOf, uniqueId, useWorkflowTier } from './harness';

jest.setTimeout(120_000);

describe('checkpoint probe workflow (dev server, fake activities)', () => {
  const tier = useWorkflowTier('publish');

  /** A probe that answers `answers` in turn (a thrown Error for 'error'), then `last`. */
  const probes = (answers: Array<CheckpointProbeOutcome | 'error'>, last: CheckpointProbeOutcome = 'still_checkpointed') => {
    const asked: string[] = [];
    const activities: CheckpointProbeActivities = {
      async probeCheckpoint({ connectionId }) {
        asked.push(connectionId);
        const answer = answers.shift() ?? last;
        if (answer === 'error') throw ApplicationFailure.nonRetryable('storage down (fake)');
        return answer;
      },
    };
    return { asked, activities };
  };

  it.concurrent('probes every interval until the flag is lifted, and returns what the last probe found', async () => {
    const { asked, activities } = probes(['still_checkpointed', 'still_checkpointed', 'cleared']);
    const connectionId = uniqueId('conn');
    await tier.withWorker('publish', activities, async (taskQueue) => {
      const handle = await tier.client.workflow.start(WORKFLOW_TYPES.checkpointProbe, {
        taskQueue, workflowId: `checkpoint:${connectionId}`, args: [{ connectionId, intervalMs: 20 }],
      });
      expect(await handle.result()).toBe('cleared');
      const events = await historyOf(handle);
      expect(activitiesIn(events)).toEqual(['probeCheckpoint', 'probeCheckpoint', 'probeCheckpoint']);
      expect(countOf(events, 'TimerStarted')).toBe(3);
    });
    expect(asked).toEqual([connectionId, connectionId, connectionId]);
  });

  it.concurrent('counts a probe that could not run as "still checkpointed" and asks again next period', async () => {
    // A failure that is not retried stands for one that failed through every retry (minutes of
    // backoff in production): the workflow sees the same activity failure.
    const { asked, activities } = probes(['error', 'gone']);
    const connectionId = uniqueId('conn');
    await tier.withWorker('publish', activities, async (taskQueue) => {
      const handle = await tier.client.workflow.start(WORKFLOW_TYPES.checkpointProbe, {
        taskQueue, workflowId: `checkpoint:${connectionId}`, args: [{ connectionId, intervalMs: 20 }],
      });
      expect(await handle.result()).toBe('gone');
      const events = await historyOf(handle);
      expect(activitiesIn(events)).toEqual(['probeCheckpoint', 'probeCheckpoint']);
      expect(countOf(events, 'ActivityTaskFailed')).toBe(1);
    });
    expect(asked).toHaveLength(2);
  });

  it.concurrent('continues as new after its probes per run, with the same input', async () => {
    const { asked, activities } = probes(['still_checkpointed', 'still_checkpointed'], 'cleared');
    const connectionId = uniqueId('conn');
    await tier.withWorker('publish', activities, async (taskQueue) => {
      const handle = await tier.client.workflow.start(WORKFLOW_TYPES.checkpointProbe, {
        taskQueue, workflowId: `checkpoint:${connectionId}`, args: [{ connectionId, intervalMs: 1, probesPerRun: 2 }],
      });
      const firstRun = handle.firstExecutionRunId;
      expect(await handle.result()).toBe('cleared');
      const first = await historyOf(handle, firstRun);
      expect(countOf(first, 'ActivityTaskScheduled')).toBe(2);
      const ended = first[first.length - 1]!;
      expect(ended.type).toBe('WorkflowExecutionContinuedAsNew');
      expect(ended.event.workflowExecutionContinuedAsNewEventAttributes?.workflowType?.name).toBe(WORKFLOW_TYPES.checkpointProbe);
      expect(await inputOf(handle)).toEqual({ connectionId, intervalMs: 1, probesPerRun: 2 });
      // The next run's single probe cleared it.
      expect(activitiesIn(await historyOf(handle))).toEqual(['probeCheckpoint']);
    });
    expect(asked).toHaveLength(3);
  });
});
