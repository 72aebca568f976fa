import type { MediaRef } from './media';
import type { MediaKind, Platform } from './platforms';
import type { PostOperation } from './post-operations';

/**
 * pending → in_progress → completed (spec). Scheduled posts start as `scheduled` and move to
 * in_progress when their time comes, or to `cancelled` when deleted before that.
 */
export type UploadStatus = 'scheduled' | 'pending' | 'in_progress' | 'completed' | 'cancelled';

/** The content of a text post (photos and video join in the publishing-engine work). */
export interface PostContent {
  /** The post text: `title` or its per-platform override. */
  title: string;
  description?: string;
  /** Photos or the video, in order, in the media store. */
  media?: MediaRef[];
}

/** One platform of an upload request. */
export interface PublishTarget {
  platform: Platform;
  connectedAccountId: string;
  /** The text this platform receives after the `<platform>_title` fallback. */
  title: string;
  /** Per-platform settings accepted by the platform's schema. */
  settings: Record<string, unknown>;
  /** `first_comment` or its `<platform>_first_comment` override. */
  firstComment?: string;
  /** Notices about this platform found at intake (ignored fields, …), carried into its result. */
  warnings?: string[];
}

/** The per-platform result of the spec's upload job / result resource. */
export interface TargetResult {
  platform: Platform;
  success: boolean;
  post_id?: string;
  url?: string;
  error?: string;
  error_code?: string;
  warnings: string[];
  first_comment_posted?: boolean;
  finished_at: string;
  /** Platform-specific result fields filled by the adapters. */
  [extra: string]: unknown;
}

export interface UploadRequest {
  accountId: string;
  requestId: string;
  profileUsername: string;
  mediaType: MediaKind;
  content: PostContent;
  targets: PublishTarget[];
  status: UploadStatus;
  async: boolean;
  externalId?: string;
  jobId?: string;
  /** When a scheduled post runs (UTC), and the IANA zone its date was given in. */
  scheduledFor?: Date;
  timezone?: string;
  /** Queued posts: the queue slot they hold (its place is released if the post is cancelled). */
  queueSlot?: Date;
  /** How many times failed platforms were sent again (POST /posts/retry). */
  retryCount?: number;
  /** Digest of profile, platforms, text, media and fields: identical uploads within a short window are one. */
  contentHash?: string;
  /** The request's own fields, kept so an edit of a scheduled post re-checks them like the original. */
  fields?: Record<string, unknown>;
  /** Per platform, filled as each target finishes. */
  results: Partial<Record<Platform, TargetResult>>;
  /** Edits, deletions, reposts, saves of the published posts (read-only: stored by recordPostOperation). */
  operations?: PostOperation[];
  /** Per platform, set just before the network is called, so a retried attempt knows the outcome may be unknown. */
  dispatches: Partial<Record<Platform, { attempt: number; at: Date }>>;
  warnings: string[];
  createdAt: Date;
  updatedAt: Date;
  startedAt?: Date;
  completedAt?: Date;
}

export function uploadSucceeded(upload: UploadRequest): boolean {
  return upload.targets.every((t) => upload.results[t.platform]?.success === true);
}
