import type { Platform } from '../../core/domain/platforms';
import type { AnalyticsSnapshotSettings } from '../../core/ports/analytics-snapshots';
import { SIGNALS, WORKFLOW_TYPES, workflowIds, type SignalArgs } from '../../core/ports/workflow-names';
import type { AnalyticsSnapshotActivities } from '../../workflows/activities/analytics-snapshots';
import type { AnalyticsSnapshotsInput } from '../../workflows/analytics-snapshots.workflow';
import { activitiesIn, eventually, historyOf, inputOf, useWorkflowTier } from './harness';

jest.setTimeout(120_000);

describe('analytics snapshots workflow (dev server, fake activities)', () => {
  const tier = useWorkflowTier('analytics');

  /** Two networks: x has 3 connections (pages of `limit`), facebook 1. Every call is logged. */
  const fakeSweep = () => {
    const connections: Partial<Record<Platform, string[]>> = { x: ['x-1', 'x-2', 'x-3'], facebook: ['fb-1'] };
    const log: string[] = [];
    const activities: AnalyticsSnapshotActivities = {
      async startSnapshotRound() {
        log.push('round');
        return { date: new Date().toISOString().slice(0, 10), platforms: ['x', 'facebook'] };
      },
      async snapshotPage({ platform, afterId, limit }) {
        log.push(`page:${platform}:${afterId ?? '-'}:${limit}`);
        const all = connections[platform] ?? [];
        const from = afterId ? all.indexOf(afterId) + 1 : 0;
        const page = all.slice(from, from + limit);
        const more = from + limit < all.length;
        return { nextAfterId: more ? page[page.length - 1]! : null, taken: page.length, failed: 0, skipped: 0 };
      },
      async cleanupAnalytics() {
        log.push('cleanup');
        return 0;
      },
    };
    return { log, activities };
  };

  /** As adapters/temporal/analytics-snapshots ensures it: signal-with-start, the settings as the signal too. */
  const ensure = (taskQueue: string, input: AnalyticsSnapshotsInput, settings: AnalyticsSnapshotSettings = input) =>
    tier.client.workflow.signalWithStart<(input: AnalyticsSnapshotsInput) => Promise<void>, SignalArgs['snapshotSettings']>(WORKFLOW_TYPES.analyticsSnapshots, {
      workflowId: workflowIds.analyticsSnapshots(taskQueue), taskQueue, args: [input], signal: SIGNALS.snapshotSettings, signalArgs: [settings],
    });

  it.concurrent('sweeps every network page by page at once, then at the next period boundary with the settings signalled meanwhile', async () => {
    const fakes = fakeSweep();
    await tier.withWorker('analytics', fakes.activities, async (taskQueue) => {
      const daily = { periodMs: 86_400_000, offsetMs: 0, pageSize: 2 };
      const handle = await ensure(taskQueue, daily);
      await eventually('the first round', () => fakes.log.includes('cleanup'));
      expect(fakes.log).toEqual(['round', 'page:x:-:2', 'page:x:x-2:2', 'page:facebook:-:2', 'cleanup']);
      // The next round is a day away: new settings (a short period, bigger pages) replan it.
      await handle.signal<SignalArgs['snapshotSettings']>(SIGNALS.snapshotSettings, { periodMs: 500, offsetMs: 0, pageSize: 5 });
      await eventually('the second round', () => fakes.log.filter((l) => l === 'cleanup').length === 2);
      await handle.terminate('test over');
    });
    expect(fakes.log.slice(5, 9)).toEqual(['round', 'page:x:-:5', 'page:facebook:-:5', 'cleanup']);
  });

  it.concurrent('continues as new after its rounds per run, with the latest settings and the same run length', async () => {
    const fakes = fakeSweep();
    await tier.withWorker('analytics', fakes.activities, async (taskQueue) => {
      const settings = { periodMs: 200, offsetMs: 0, pageSize: 5 };
      const handle = await ensure(taskQueue, { ...settings, roundsPerRun: 2 }, settings);
      const firstRun = handle.signaledRunId;
      await eventually('a fresh run', async () => (await handle.describe()).runId !== firstRun);
      const first = await historyOf(handle, firstRun);
      expect(activitiesIn(first).filter((a) => a === 'startSnapshotRound')).toHaveLength(2);
      expect(first[first.length - 1]!.type).toBe('WorkflowExecutionContinuedAsNew');
      // The settings signal (which never carries the run length) replaced the settings; the length stays.
      expect(await inputOf(handle)).toEqual({ ...settings, roundsPerRun: 2 });
      await handle.terminate('test over');
    });
  });
});
