/**
 * The daily snapshot schedule (one entity workflow per deployment, on the analytics task queue).
 */

/** Inputs of the snapshot workflow: every duration is configuration, so tests run it in seconds. */
export interface AnalyticsSnapshotSettings {
  /** Time between rounds (production: a day). */
  periodMs: number;
  /** Rounds are due at multiples of `periodMs` since the epoch, plus this (production: 23:50 UTC, so a round sees most of its day). */
  offsetMs: number;
  /** Connections per activity of a round. */
  pageSize: number;
}

export const DEFAULT_SNAPSHOT_SETTINGS: AnalyticsSnapshotSettings = {
  periodMs: 86_400_000,
  offsetMs: 23 * 3_600_000 + 50 * 60_000,
  pageSize: 50,
};

/** Starts the snapshot workflow, or hands the running one new settings (idempotent). */
export interface AnalyticsSnapshotSchedule {
  ensure(settings: AnalyticsSnapshotSettings): Promise<void>;
}
