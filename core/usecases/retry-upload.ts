import { conflict, invalidInput, notFound } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import type { UploadRequest } from '../domain/upload';
import type { SubmitDeps } from './submit-upload';

/**
 * POST /posts/retry: sends the failed platforms of a finished upload again, with the original
 * media and settings; the platforms that succeeded are left alone.
 */
export async function retryFailedPlatforms(
  deps: SubmitDeps, account: OperatorAccount, input: { requestId?: string; jobId?: string },
): Promise<{ upload: UploadRequest; retried: string[] }> {
  if (!input.requestId && !input.jobId) throw invalidInput('Send request_id (or job_id) of the upload to retry.');
  const upload = input.requestId
    ? await deps.storage.uploads.find(account.id, input.requestId)
    : await deps.storage.uploads.findByJobId(account.id, input.jobId!);
  if (!upload) throw notFound('No such upload.', 'UPLOAD_NOT_FOUND');
  if (upload.status !== 'completed') throw conflict(`The upload is ${upload.status}: only finished uploads can be retried.`, 'upload_not_finished');
  const failed = upload.targets.map((t) => t.platform).filter((p) => upload.results[p] && !upload.results[p]!.success);
  if (!failed.length) throw invalidInput('Every platform of this upload succeeded: there is nothing to retry.', undefined, 'nothing_to_retry');
  const retry = await deps.storage.uploads.resetForRetry(account.id, upload.requestId, failed, deps.clock.now());
  if (retry === null) throw conflict('The upload is being retried already.', 'upload_not_finished');
  const reset = (await deps.storage.uploads.find(account.id, upload.requestId))!;
  await deps.runner.start(reset);
  return { upload: reset, retried: failed };
}
