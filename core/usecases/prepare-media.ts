import { HeraldError, sentences } from '../domain/errors';
import { isUnfetched, type MediaRef } from '../domain/media';
import { mediaLimitViolations } from '../domain/media-limits';
import type { TargetResult } from '../domain/upload';
import type { MediaFetcher } from '../ports/media';
import { emitUploadCompleted, type RunUploadDeps } from './run-upload';

export type PrepareMediaDeps = RunUploadDeps & { mediaFetcher?: MediaFetcher };

/**
 * The background half of an asynchronous request's URL media (the API only vetted the URLs):
 * downloads each into the media store (SSRF-checked, size-capped, type-checked), probes it and
 * stores the described media on the upload, then applies each target network's media limits.
 * A download that fails fails every target with its reason; a network whose limits the media
 * breaks fails alone. Either way the results are final (upload_completed is emitted) and nothing
 * is sent to that network. Returns whether any target is left to publish.
 */
export async function prepareMedia(deps: PrepareMediaDeps, input: { accountId: string; requestId: string }): Promise<{ publishable: boolean }> {
  const upload = await deps.storage.uploads.find(input.accountId, input.requestId);
  if (!upload) throw new Error(`upload ${input.requestId} of ${input.accountId} not found`);
  const open = () => upload.targets.filter((t) => !upload.results[t.platform]);
  const media = upload.content.media ?? [];
  if (!media.some(isUnfetched) || upload.status === 'cancelled') return { publishable: open().length > 0 };
  if (!deps.mediaFetcher) throw new Error('this worker cannot fetch media URLs (no media fetcher configured)');

  const now = () => deps.clock.now();
  const finish = async (result: TargetResult) => {
    await deps.storage.uploads.recordResult(upload.accountId, upload.requestId, result, now(), upload);
    upload.results[result.platform] = result;
    await emitUploadCompleted(deps, upload, result);
  };

  const fetched: MediaRef[] = [];
  for (const item of media) {
    if (!isUnfetched(item)) {
      fetched.push(item);
      continue;
    }
    const { url, field } = item.source!;
    try {
      const got = await deps.mediaFetcher.fetch(url, field, upload.mediaType === 'video' ? 'video' : 'media');
      fetched.push({ ...got, source: item.source! });
    } catch (err) {
      // Refusals (private address, 404, wrong type, too large) are final; anything else is retried by the activity.
      if (!(err instanceof HeraldError)) throw err;
      for (const target of open()) {
        await finish({
          platform: target.platform, success: false, error: `The media could not be fetched, nothing was sent: ${err.message}`,
          error_code: err.errorCode ?? 'media_fetch_failed', failure_stage: 'media', warnings: [], finished_at: now().toISOString(),
        });
      }
      return { publishable: false };
    }
  }
  await deps.storage.uploads.setMedia(upload.accountId, upload.requestId, fetched, now());

  for (const target of open()) {
    const adapter = deps.platforms.get(target.platform);
    const violations = adapter ? mediaLimitViolations(adapter.descriptor, upload.mediaType, fetched) : [];
    if (!violations.length) continue;
    await finish({
      platform: target.platform, success: false, error: `${sentences(violations.map((v) => v.message))} Nothing was sent.`,
      error_code: violations[0]!.type, failure_stage: 'media', violations, warnings: [], finished_at: now().toISOString(),
    });
  }
  return { publishable: open().length > 0 };
}
