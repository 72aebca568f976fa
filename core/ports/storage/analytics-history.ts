import type { AnalyticsSnapshot } from '../../domain/analytics-history';
import type { DailySeries, SeriesName } from '../../domain/analytics-series';
import type { PagePosition } from '../../domain/page-cursor';
import type { Platform } from '../../domain/platforms';
import type { ListPage } from './uploads';

/**
 * The daily snapshots of each profile's accounts, and the range read model derived from them
 * (core/domain/analytics-series.ts). One snapshot per (account, profile, network, UTC day): taking
 * a day's snapshot again replaces it. The snapshots are the record; the series are what ranges
 * read (a year of one network's figure of one series is one stored array: ranges cost a few
 * equality reads however long they are, never a scan).
 *
 * One writer per profile: `put` for one profile is not called concurrently from two processes (the
 * snapshot rounds run one after another, one network at a time, and a profile has one connection
 * per network); an adapter may update a profile's series by read-modify-write.
 */
export interface AnalyticsSnapshotRepository {
  /** Stores (or replaces) the day's snapshot and its figures in the series; kept until `expiresAt` at least. */
  put(snapshot: AnalyticsSnapshot, expiresAt: Date): Promise<void>;
  /**
   * Each of `platforms` × `names` over [start, end] (YYYY-MM-DD, inclusive): one figure per day,
   * NaN where no snapshot of that day has one. Every pair is answered (all NaN when nothing is stored).
   */
  series(accountId: string, profileUsername: string, platforms: readonly Platform[], names: readonly SeriesName[], start: string, end: string): Promise<DailySeries[]>;
  /** The newest snapshot on or before `day`, looking back at most `lookbackDays`; null when none. */
  latestOnOrBefore(accountId: string, profileUsername: string, platform: Platform, day: string, lookbackDays: number): Promise<AnalyticsSnapshot | null>;
  /**
   * Rewrites the series of a profile's calendar year from its snapshots of `platforms` (those of
   * other networks are dropped): a migration, the `herald analytics rebuild` command. It is that
   * year's writer meanwhile: run it between snapshot rounds. Returns the snapshots found.
   */
  rebuildSeries(accountId: string, profileUsername: string, platforms: readonly Platform[], year: number): Promise<number>;
  /**
   * Periodic cleanup (no TTL indexes on FerretDB): removes expired snapshots, and the series of a
   * year once its last snapshot expired, reading what expired rather than what is kept. Nothing
   * goes before its expiresAt; an adapter may keep it a while after (the Mongo adapter: until the
   * end of the UTC day a snapshot expires in, of the month for a series). Returns how many snapshots went.
   */
  deleteExpired(now: Date): Promise<number>;
}

/** The last live metrics fetched for one post (what `GET /post-analytics/cached` replays). */
export interface PostMetricsCapture {
  accountId: string;
  platform: Platform;
  platformPostId: string;
  profileUsername: string;
  source: 'organic' | 'api_uploaded';
  requestId?: string;
  metrics: Record<string, unknown>;
  capturedAt: Date;
}

export interface PostMetricsCaptureQuery {
  accountId: string;
  platform?: Platform;
  /** capturedAt >= since, < until (exact). */
  since?: Date;
  until?: Date;
  /** Cursor form: the rows after this position (a previous page's `next`); else from the newest. */
  after?: PagePosition;
  limit: number;
}

export interface PostMetricsCaptureRepository {
  /** One row per (account, network, post): a later capture replaces the earlier one (and moves it to the top of the list). */
  record(capture: PostMetricsCapture, expiresAt: Date): Promise<void>;
  /**
   * Newest capture first (capturedAt, then the row's key `<account>:<network>:<post id>`), `limit`
   * rows from the newest or after `after`; `next` when another page exists. Reads the rows of the
   * page, not every row of the account (docs/storage/lists.md).
   */
  list(query: PostMetricsCaptureQuery): Promise<ListPage<PostMetricsCapture>>;
  /** Removes the rows expired by `now` (the Mongo adapter: by the end of the hour they expire in); returns how many went. */
  deleteExpired(now: Date): Promise<number>;
}
