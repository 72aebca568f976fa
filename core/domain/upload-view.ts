import { withPostOperations } from './post-operations';
import type { TargetResult, UploadRequest } from './upload';

/** The status / history record of an upload as the API shows it. */
export interface UploadView {
  request_id: string;
  job_id?: string;
  external_id?: string;
  status: UploadRequest['status'];
  /** Scheduled and queued posts: when they run (UTC, ISO-8601), the zone they were given in, and the queue slot held. */
  scheduled_date?: string;
  timezone?: string;
  queue_slot?: string;
  /**
   * true when every platform target succeeded; false once any failed; null while unknown.
   * (The body's own `success` says the API call worked, as on every success body.)
   */
  all_succeeded: boolean | null;
  profile_username: string;
  media_type: UploadRequest['mediaType'];
  platforms: string[];
  title: string;
  results: Record<string, TargetResult>;
  summary: { total: number; succeeded: number; failed: number; pending: number };
  warnings: string[];
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export function toUploadView(upload: UploadRequest): UploadView {
  const results: Record<string, TargetResult> = {};
  let succeeded = 0;
  let failed = 0;
  for (const target of upload.targets) {
    const result = upload.results[target.platform];
    if (!result) continue;
    const operations = upload.operations?.filter((op) => op.platform === target.platform) ?? [];
    results[target.platform] = withPostOperations(result, operations);
    if (result.success) succeeded += 1;
    else failed += 1;
  }
  const total = upload.targets.length;
  const pending = total - succeeded - failed;
  return {
    request_id: upload.requestId,
    ...(upload.jobId ? { job_id: upload.jobId } : {}),
    ...(upload.externalId ? { external_id: upload.externalId } : {}),
    status: upload.status,
    ...(upload.scheduledFor ? { scheduled_date: upload.scheduledFor.toISOString(), timezone: upload.timezone ?? 'UTC' } : {}),
    ...(upload.queueSlot ? { queue_slot: upload.queueSlot.toISOString() } : {}),
    all_succeeded: failed > 0 ? false : pending === 0 ? true : null,
    profile_username: upload.profileUsername,
    media_type: upload.mediaType,
    platforms: upload.targets.map((t) => t.platform),
    title: upload.content.title,
    results,
    summary: { total, succeeded, failed, pending },
    warnings: upload.warnings,
    created_at: upload.createdAt.toISOString(),
    started_at: upload.startedAt?.toISOString() ?? null,
    completed_at: upload.completedAt?.toISOString() ?? null,
  };
}

/**
 * What `success` means on a status read: the upload finished and every network succeeded. A
 * client that stops polling on `success === true` must not stop while nothing is published yet
 * (scheduled, pending, in progress), nor take a partial failure or a cancellation for success.
 */
export const finishedAndSucceeded = (view: Pick<UploadView, 'status' | 'all_succeeded'>): boolean =>
  view.status === 'completed' && view.all_succeeded === true;
