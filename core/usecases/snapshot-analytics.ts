/**
 * The daily snapshot of every connected account's profile metrics (run by the analytics pool's
 * workflow, a page of connections per activity). Each account is read as itself, through its
 * connection session; one account's failure is counted and never stops the round.
 */
import { dayOf, type AnalyticsSnapshot } from '../domain/analytics-history';
import { yearOf } from '../domain/analytics-series';
import type { ConnectedAccount } from '../domain/connected-account';
import type { Platform } from '../domain/platforms';
import type { Storage } from '../ports/storage';
import type { AnalyticsSnapshotRepository, PostMetricsCaptureRepository } from '../ports/storage/analytics-history';
import { withConnection, type ConnectionSessionDeps } from './connection-session';

export interface SnapshotDeps extends ConnectionSessionDeps {
  snapshots: AnalyticsSnapshotRepository;
  captures?: PostMetricsCaptureRepository;
  /** How long a snapshot is kept (at least a year and a day: `period=last_year`). */
  retentionMs: number;
  /** Accounts measured at once within a page. */
  concurrency?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/** The networks whose adapters can measure a profile, in registry order. */
export const snapshotPlatforms = (deps: Pick<SnapshotDeps, 'platforms'>): Platform[] => deps.platforms.having('analytics').map((a) => a.descriptor.id);

/** Takes (or replaces) the day's snapshot of one account: the day so far, from its UTC midnight. */
export async function snapshotConnection(deps: SnapshotDeps, connection: ConnectedAccount): Promise<AnalyticsSnapshot> {
  const analytics = deps.platforms.with(connection.platform, 'analytics')!.analytics;
  const now = deps.clock.now();
  const date = dayOf(now);
  // A one-day window ending now: the day so far (a later round of the same day replaces it).
  const metrics = await withConnection(deps, connection, (ctx) => analytics.account(ctx, { until: now, days: 1 }));
  const snapshot: AnalyticsSnapshot = {
    accountId: connection.accountId, profileUsername: connection.profileUsername, platform: connection.platform,
    connectionId: connection.id, date, metrics: numbersOf(metrics.values), capturedAt: now,
  };
  await deps.snapshots.put(snapshot, new Date(now.getTime() + deps.retentionMs));
  return snapshot;
}

/** Only numeric metrics are history (time series and demographics are the live endpoint's). */
function numbersOf(metrics: Record<string, unknown>): Record<string, number | null> {
  return Object.fromEntries(Object.entries(metrics).filter(([, v]) => typeof v === 'number' || v === null)) as Record<string, number | null>;
}

export interface SnapshotPage {
  /** Pass back as `afterId` for the next page (an opaque position of the sweep); null after the last. */
  nextAfterId: string | null;
  taken: number;
  failed: number;
  skipped: number;
}

/** One page of a network's connections, by id: connected ones measured, `concurrency` at a time. */
export async function snapshotPage(deps: SnapshotDeps, platform: Platform, page: { afterId?: string; limit: number }): Promise<SnapshotPage> {
  const { items: connections, next: after } = await deps.storage.connectedAccounts.listByPlatform(platform, page);
  const due = connections.filter((c) => c.status === 'connected');
  let taken = 0;
  let failed = 0;
  let next = 0;
  const lane = async () => {
    while (next < due.length) {
      const connection = due[next++]!;
      try {
        await snapshotConnection(deps, connection);
        taken += 1;
      } catch (err) {
        failed += 1;
        deps.log?.('analytics snapshot failed', { platform, connection: connection.id, error: (err as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 4, due.length) }, lane));
  return { nextAfterId: after ?? null, taken, failed, skipped: connections.length - due.length };
}

/** Removes expired snapshots and post metric captures (no TTL indexes on FerretDB). */
export async function cleanupAnalytics(deps: Pick<SnapshotDeps, 'snapshots' | 'captures' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  return (await deps.snapshots.deleteExpired(now)) + (deps.captures ? await deps.captures.deleteExpired(now) : 0);
}

export interface RebuildDeps extends Pick<SnapshotDeps, 'snapshots' | 'platforms' | 'clock' | 'retentionMs' | 'log'> {
  storage: Pick<Storage, 'profiles'>;
}

/**
 * Rebuilds the range series from the snapshots (`herald analytics rebuild`: after an upgrade that
 * changed them, or to repair them): for each profile of the accounts, each network that can be
 * measured, each calendar year the retention reaches. Run it between snapshot rounds (the
 * rounds write the same series).
 */
export async function rebuildAnalyticsSeries(deps: RebuildDeps, accountIds: readonly string[]): Promise<{ profiles: number; years: number; snapshots: number }> {
  const now = deps.clock.now();
  const first = yearOf(dayOf(new Date(now.getTime() - deps.retentionMs)));
  const years = Array.from({ length: yearOf(dayOf(now)) - first + 1 }, (_, i) => first + i);
  const platforms = snapshotPlatforms(deps);
  const done = { profiles: 0, years: 0, snapshots: 0 };
  for (const accountId of accountIds) {
    for (const profile of await deps.storage.profiles.list(accountId)) {
      for (const year of years) {
        done.snapshots += await deps.snapshots.rebuildSeries(accountId, profile.username, platforms, year);
        done.years += 1;
      }
      done.profiles += 1;
      deps.log?.('analytics series rebuilt', { account: accountId, profile: profile.username, snapshots: done.snapshots });
    }
  }
  return done;
}
