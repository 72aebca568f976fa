import type { AnalyticsSnapshot } from '../../domain/analytics-history';
import type { Platform } from '../../domain/platforms';

/**
 * The daily snapshots of each profile's accounts. One entry per (account, profile, network, UTC
 * day), unique by that key: taking a day's snapshot again replaces it. Reads are equality lookups
 * on the key (the Mongo adapter keeps a month of one network per document, so a year of ten
 * networks is ~130 `_id` gets, never a range scan over the whole collection).
 */
export interface AnalyticsSnapshotRepository {
  /** Stores (or replaces) the day's snapshot; kept until `expiresAt` at least. */
  put(snapshot: AnalyticsSnapshot, expiresAt: Date): Promise<void>;
  /** The snapshots of the profile's `platforms` whose day is in [start, end] (YYYY-MM-DD, inclusive), any order. */
  range(accountId: string, profileUsername: string, platforms: readonly Platform[], start: string, end: string): Promise<AnalyticsSnapshot[]>;
  /** The newest snapshot on or before `day`, looking back at most `lookbackDays`; null when none. */
  latestOnOrBefore(accountId: string, profileUsername: string, platform: Platform, day: string, lookbackDays: number): Promise<AnalyticsSnapshot | null>;
  /** Periodic cleanup (no TTL indexes on FerretDB): removes what expired. Returns how many documents went. */
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
  /** capturedAt >= since, < until. */
  since?: Date;
  until?: Date;
  /** Opaque, from the previous page's `nextCursor`. */
  cursor?: string;
  limit: number;
}

export interface PostMetricsCaptureRepository {
  /** One row per (account, network, post): a later capture replaces the earlier one. */
  record(capture: PostMetricsCapture, expiresAt: Date): Promise<void>;
  /** Newest capture first; `nextCursor` when another page exists. Throws on a cursor it did not issue. */
  list(query: PostMetricsCaptureQuery): Promise<{ items: PostMetricsCapture[]; nextCursor: string | null }>;
  deleteExpired(now: Date): Promise<number>;
}
