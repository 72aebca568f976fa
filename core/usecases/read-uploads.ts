import { invalidInput, notFound } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
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

export async function listUploadHistory(
  storage: Pick<Storage, 'uploads'>, account: OperatorAccount, query: Omit<UploadHistoryQuery, 'accountId'>,
): Promise<{ history: UploadView[]; page: number; limit: number; total: number; has_more: boolean }> {
  const { items, total } = await storage.uploads.history({ ...query, accountId: account.id });
  return {
    history: items.map(toUploadView),
    page: query.page,
    limit: query.limit,
    total,
    has_more: query.page * query.limit < total,
  };
}
