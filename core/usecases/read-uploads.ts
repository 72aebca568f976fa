import { invalidInput, notFound } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { decodePageCursor, encodePageCursor, listFingerprint } from '../domain/page-cursor';
import { toUploadView, type UploadView } from '../domain/upload-view';
import type { Storage, UploadHistoryQuery } from '../ports/storage';

export async function getUploadStatus(
  storage: Pick<Storage, 'uploads'>, account: OperatorAccount, input: { requestId?: string; jobId?: string },
): Promise<UploadView> {
  if (!input.requestId && !input.jobId) throw invalidInput('Send request_id (or job_id for scheduled posts) as a query parameter.');
  const upload = input.requestId
    ? await storage.uploads.find(account.id, input.requestId)
    : await storage.uploads.findByJobId(account.id, input.jobId!);
  if (!upload) {
    throw notFound(input.requestId ? `No upload with request_id "${input.requestId}".` : `No job with job_id "${input.jobId}".`, 'UPLOAD_NOT_FOUND');
  }
  return toUploadView(upload);
}

/**
 * One page of the upload history, newest first. Page form (`page`, `limit`) or cursor form
 * (`cursor` = a previous page's `next_cursor`, with the same filters): both read only the uploads
 * of the page (docs/storage/lists.md).
 */
export async function listUploadHistory(
  storage: Pick<Storage, 'uploads'>, account: OperatorAccount, query: Omit<UploadHistoryQuery, 'accountId' | 'after'> & { cursor?: string },
): Promise<{ history: UploadView[]; page: number; limit: number; total: number; has_more: boolean; next_cursor: string | null }> {
  const { cursor, ...filters } = query;
  const fingerprint = listFingerprint('history', {
    platform: filters.platform, status: filters.status, profile_username: filters.profileUsername, start: filters.start, end: filters.end,
    request_id: filters.requestId, job_id: filters.jobId, external_id: filters.externalId,
  });
  const after = cursor !== undefined ? decodePageCursor(cursor, fingerprint) : undefined;
  const { items, total, next } = await storage.uploads.history({ ...filters, accountId: account.id, ...(after ? { after } : {}) });
  return {
    history: items.map(toUploadView),
    page: query.page,
    limit: query.limit,
    total,
    has_more: next !== undefined,
    next_cursor: next ? encodePageCursor(next, fingerprint) : null,
  };
}
