import { dayOf } from '../../core/domain/analytics-history';
import { cleanupAnalytics, snapshotPage, snapshotPlatforms, type SnapshotDeps } from '../../core/usecases/snapshot-analytics';
import type { Platform } from '../../core/domain/platforms';

/** The snapshot workflow's activities (their names are recorded in workflow histories). */
export function createAnalyticsSnapshotActivities(deps: SnapshotDeps) {
  return {
    /** The round's day (the activity's clock, not the workflow's) and the networks to sweep. */
    startSnapshotRound: async (): Promise<{ date: string; platforms: Platform[] }> => ({ date: dayOf(deps.clock.now()), platforms: snapshotPlatforms(deps) }),
    snapshotPage: (input: { platform: Platform; afterId?: string; limit: number }) =>
      snapshotPage(deps, input.platform, { ...(input.afterId !== undefined ? { afterId: input.afterId } : {}), limit: input.limit }),
    cleanupAnalytics: () => cleanupAnalytics(deps),
  };
}

export type AnalyticsSnapshotActivities = ReturnType<typeof createAnalyticsSnapshotActivities>;
