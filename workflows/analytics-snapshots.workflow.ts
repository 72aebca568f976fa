/*
 * Durability rule: this workflow's command sequence (which activities, timers and markers, in
 * which order) is part of every history recorded by earlier code. Any change to it goes under
 * `patched('<id>')` (old branch kept), and test/replay replays the committed histories to prove it.
 */
import { continueAsNew, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { AnalyticsSnapshotSettings } from '../core/ports/analytics-snapshots';
import { SIGNALS, type SignalArgs } from '../core/ports/workflow-names';
import type { AnalyticsSnapshotActivities } from './activities/analytics-snapshots';
import { MovableTimer, workflowNow } from './support/movable-timer';

export const snapshotSettingsSignal = defineSignal<SignalArgs['snapshotSettings']>(SIGNALS.snapshotSettings);

/** Rounds per run before the history is handed to a fresh run, unless the input says. */
const ROUNDS_PER_RUN = 100;

/** The settings, and how many rounds a run makes (tests use a few; the settings signal never carries it). */
export type AnalyticsSnapshotsInput = AnalyticsSnapshotSettings & { roundsPerRun?: number };

/** The next round: the next multiple of the period since the epoch, plus the offset, after `now`. */
export function nextRoundAt(now: number, s: AnalyticsSnapshotSettings): number {
  const offset = s.offsetMs % s.periodMs;
  return (Math.floor((now - offset) / s.periodMs) + 1) * s.periodMs + offset;
}

/**
 * The analytics snapshot schedule of a deployment (`analytics-snapshots:<task queue>`, on the
 * analytics task queue): every period it sweeps each network that can measure a profile, a page
 * of connections per activity (each connected account measured as itself and stored under its
 * day), then removes expired history. Signal `snapshotSettings` replans the next round with new
 * settings (the pool sends it at every start, so configuration changes apply without a restart).
 * A round runs at once when the workflow starts, then at each period boundary.
 */
export async function analyticsSnapshotsWorkflow(input: AnalyticsSnapshotsInput): Promise<void> {
  const { startSnapshotRound, snapshotPage, cleanupAnalytics } = proxyActivities<AnalyticsSnapshotActivities>({
    startToCloseTimeout: '10 minutes',
    retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes' },
  });
  let settings: AnalyticsSnapshotSettings = input;
  const timer = new MovableTimer(workflowNow());
  setHandler(snapshotSettingsSignal, (next) => {
    settings = next;
    timer.moveTo(Math.min(timer.deadline, nextRoundAt(workflowNow(), settings)));
  });

  const rounds = input.roundsPerRun ?? ROUNDS_PER_RUN;
  for (let round = 0; round < rounds; round += 1) {
    await timer.untilDue();
    const { platforms } = await startSnapshotRound();
    for (const platform of platforms) {
      let afterId: string | null = null;
      do {
        const page: { nextAfterId: string | null } = await snapshotPage({ platform, limit: settings.pageSize, ...(afterId !== null ? { afterId } : {}) });
        afterId = page.nextAfterId;
      } while (afterId !== null);
    }
    await cleanupAnalytics();
    timer.moveTo(nextRoundAt(workflowNow(), settings));
  }
  return continueAsNew<typeof analyticsSnapshotsWorkflow>(input.roundsPerRun !== undefined ? { ...settings, roundsPerRun: input.roundsPerRun } : settings);
}
