import { conflict, notFound } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { decodePageCursor, encodePageCursor, listFingerprint } from '../domain/page-cursor';
import { parseScheduledDate } from '../domain/schedule';
import type { UploadRequest } from '../domain/upload';
import { toUploadView, type UploadView } from '../domain/upload-view';
import { buildTargets, type SubmitDeps } from './submit-upload';

export type ScheduledView = UploadView & { job_id: string; scheduled_date: string; timezone: string };

function scheduledView(upload: UploadRequest): ScheduledView {
  return {
    ...toUploadView(upload),
    job_id: upload.jobId!,
    scheduled_date: upload.scheduledFor!.toISOString(),
    timezone: upload.timezone ?? 'UTC',
  };
}

async function requireJob(deps: SubmitDeps, account: OperatorAccount, jobId: string): Promise<UploadRequest> {
  const upload = await deps.storage.uploads.findByJobId(account.id, jobId);
  if (!upload || !upload.scheduledFor) throw notFound(`No scheduled post with job_id "${jobId}".`, 'JOB_NOT_FOUND');
  return upload;
}

/** Scheduled posts that have not run yet, soonest first; `limit` per page, the next page by `cursor`. */
export async function listScheduled(
  deps: Pick<SubmitDeps, 'storage'>, account: OperatorAccount, page: { limit: number; cursor?: string },
): Promise<{ scheduled: ScheduledView[]; total: number; has_more: boolean; next_cursor: string | null }> {
  const fingerprint = listFingerprint('schedule', {});
  const after = page.cursor !== undefined ? decodePageCursor(page.cursor, fingerprint) : undefined;
  const { items, total, next } = await deps.storage.uploads.listScheduled(account.id, { limit: page.limit, ...(after ? { after } : {}) });
  return { scheduled: items.map(scheduledView), total, has_more: next !== undefined, next_cursor: next ? encodePageCursor(next, fingerprint) : null };
}

/** Cancels a scheduled post before it runs: it will not publish. */
export async function cancelScheduledPost(deps: SubmitDeps, account: OperatorAccount, jobId: string): Promise<ScheduledView> {
  const upload = await requireJob(deps, account, jobId);
  if (!(await deps.storage.uploads.cancelScheduled(account.id, upload.requestId, deps.clock.now()))) {
    throw conflict(`The post of job ${jobId} is ${upload.status === 'scheduled' ? 'starting' : upload.status} and can no longer be cancelled.`, 'job_not_cancellable');
  }
  // A queued post gives its place in the slot back.
  if (upload.queueSlot) await deps.storage.queues.release(account.id, upload.profileUsername, upload.queueSlot, upload.requestId);
  // The stored status already stops it; the signal only ends the workflow's wait early.
  await deps.runner.cancel(upload).catch((err: Error) => deps.log?.('cancel signal not delivered (the stored status still stops the post)', { job_id: jobId, error: err.message }));
  return scheduledView((await deps.storage.uploads.find(account.id, upload.requestId))!);
}

export interface ScheduledEdit {
  scheduled_date?: string;
  timezone?: string;
  title?: string;
  description?: string;
  /** Per-platform fields (`<platform>_title`, the networks' settings), merged over the original ones. */
  fields?: Record<string, unknown>;
}

/**
 * Edits a scheduled post: date, title, caption and per-platform fields. The edited post is checked
 * again like a new one (settings, limits, connections) before anything is stored, but it is not a
 * new upload: the monthly quota does not count or refuse it, and the caps meet it when it is due.
 */
export async function editScheduledPost(deps: SubmitDeps, account: OperatorAccount, jobId: string, edit: ScheduledEdit): Promise<ScheduledView> {
  const upload = await requireJob(deps, account, jobId);
  if (upload.status !== 'scheduled') throw conflict(`The post of job ${jobId} is ${upload.status} and can no longer be edited.`, 'job_not_editable');
  const timezone = edit.timezone ?? upload.timezone ?? 'UTC';
  const scheduledFor = edit.scheduled_date !== undefined || edit.timezone !== undefined
    ? parseScheduledDate(edit.scheduled_date ?? upload.scheduledFor!.toISOString(), timezone, deps.clock.now())
    : upload.scheduledFor!;
  const title = edit.title ?? upload.content.title;
  const description = edit.description ?? upload.content.description;
  const fields = { ...(upload.fields ?? {}), ...(edit.fields ?? {}) };
  const { targets } = await buildTargets(deps, account, {
    kind: upload.mediaType, profileUsername: upload.profileUsername, platforms: upload.targets.map((t) => t.platform),
    title, ...(description !== undefined ? { description } : {}), media: upload.content.media ?? [], fields,
    async: true, warnings: [], syncTimeoutMs: 0,
  }, { edit: true });
  const content = { ...upload.content, title, ...(description !== undefined ? { description } : {}) };
  if (!(await deps.storage.uploads.updateScheduled(account.id, upload.requestId, { scheduledFor, timezone, content, targets, fields }, deps.clock.now()))) {
    throw conflict(`The post of job ${jobId} started meanwhile and can no longer be edited.`, 'job_not_editable');
  }
  const updated = (await deps.storage.uploads.find(account.id, upload.requestId))!;
  await deps.runner.reschedule(updated);
  return scheduledView(updated);
}
