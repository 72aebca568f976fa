import { forbidden, notFound } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import type { Platform } from '../domain/platforms';
import type { UploadRequest } from '../domain/upload';
import { cancelScheduledPost, editScheduledPost, type ScheduledView } from './scheduled-posts';
import type { SubmitDeps } from './submit-upload';

/** How many of a profile's newest posts the calendar reads (newest first by creation). */
export const CALENDAR_POST_LIMIT = 500;

export type CalendarPostStatus = 'scheduled' | 'queued' | 'pending' | 'in_progress' | 'published' | 'failed' | 'partial' | 'cancelled';
export type CalendarTargetStatus = 'waiting' | 'published' | 'failed';

export interface CalendarPost {
  requestId: string;
  jobId?: string;
  status: CalendarPostStatus;
  /** Where the post sits on the calendar: its scheduled time, else when it finished, else when it was made. */
  at: Date;
  timezone?: string;
  title: string;
  mediaType: string;
  /** Scheduled and queued posts not started yet can be moved and cancelled. */
  editable: boolean;
  targets: Array<{ platform: Platform; status: CalendarTargetStatus; url?: string; error?: string }>;
}

function statusOf(upload: UploadRequest): CalendarPostStatus {
  if (upload.status === 'scheduled') return upload.queueSlot ? 'queued' : 'scheduled';
  if (upload.status === 'completed') {
    const results = upload.targets.map((t) => upload.results[t.platform]?.success === true);
    if (results.every(Boolean)) return 'published';
    return results.some(Boolean) ? 'partial' : 'failed';
  }
  return upload.status as CalendarPostStatus;
}

function toCalendarPost(upload: UploadRequest): CalendarPost {
  return {
    requestId: upload.requestId,
    ...(upload.jobId ? { jobId: upload.jobId } : {}),
    status: statusOf(upload),
    at: upload.scheduledFor && upload.status !== 'completed' ? upload.scheduledFor : (upload.completedAt ?? upload.scheduledFor ?? upload.createdAt),
    ...(upload.timezone ? { timezone: upload.timezone } : {}),
    title: upload.content.title ?? '',
    mediaType: upload.mediaType,
    editable: upload.status === 'scheduled' && Boolean(upload.jobId),
    targets: upload.targets.map((t) => {
      const result = upload.results[t.platform];
      return {
        platform: t.platform,
        status: !result ? 'waiting' : result.success ? 'published' : 'failed',
        ...(result?.url ? { url: result.url } : {}),
        ...(result && !result.success && result.error ? { error: result.error } : {}),
      };
    }),
  };
}

/** The profile's scheduled, queued and published posts whose calendar time falls in [from, to). */
export async function calendarPosts(
  deps: Pick<SubmitDeps, 'storage'>, account: OperatorAccount, profileUsername: string, range: { from: Date; to: Date },
): Promise<CalendarPost[]> {
  const { items } = await deps.storage.uploads.history({ accountId: account.id, profileUsername, page: 1, limit: CALENDAR_POST_LIMIT });
  return items
    .filter((u) => u.status !== 'cancelled')
    .map(toCalendarPost)
    .filter((p) => p.at >= range.from && p.at < range.to)
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

async function requireProfilePost(deps: SubmitDeps, account: OperatorAccount, profileUsername: string, jobId: string): Promise<void> {
  const upload = await deps.storage.uploads.findByJobId(account.id, jobId);
  if (!upload || !upload.scheduledFor) throw notFound(`No scheduled post with job_id "${jobId}".`, 'JOB_NOT_FOUND');
  // The page's session reaches one profile: another profile's post is not its to touch.
  if (upload.profileUsername !== profileUsername) throw forbidden('This post belongs to another profile.', 'not_owner');
}

/** Moves one of the profile's scheduled posts (the schedule use case re-checks it like an edit). */
export async function moveProfilePost(
  deps: SubmitDeps, account: OperatorAccount, profileUsername: string, jobId: string, to: { scheduledDate: string; timezone: string },
): Promise<ScheduledView> {
  await requireProfilePost(deps, account, profileUsername, jobId);
  return editScheduledPost(deps, account, jobId, { scheduled_date: to.scheduledDate, timezone: to.timezone });
}

export async function cancelProfilePost(deps: SubmitDeps, account: OperatorAccount, profileUsername: string, jobId: string): Promise<ScheduledView> {
  await requireProfilePost(deps, account, profileUsername, jobId);
  return cancelScheduledPost(deps, account, jobId);
}
