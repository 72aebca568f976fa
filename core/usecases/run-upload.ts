import { failureErrorCode, PlatformError } from '../domain/errors';
import type { Platform } from '../domain/platforms';
import type { TargetResult, UploadRequest } from '../domain/upload';
import type { Notifier } from '../ports/notifications';
import type { PlatformCredentials, PlatformRegistry } from '../ports/platform';
import type { Storage } from '../ports/storage';
import type { Clock, SecretBox } from '../ports/system';
import type { UploadTiming } from '../ports/upload-runner';

/** The steps of a running upload. The workflow calls them as activities; they hold no state. */
export interface RunUploadDeps {
  storage: Storage;
  platforms: PlatformRegistry;
  secrets: SecretBox;
  notifier: Notifier;
  clock: Clock;
}

export type TargetOutcome =
  | { kind: 'done'; result: TargetResult }
  /** The network asked to come back later; the workflow waits durably and calls again. */
  | { kind: 'retry'; afterMs: number; reason: string };

export interface PublishTargetInput {
  accountId: string;
  requestId: string;
  platform: Platform;
  /** Which "come back later" round this is (0 first). */
  round: number;
  /** The execution attempt of this round (1 first); above 1 the previous attempt died mid-flight. */
  attempt: number;
  timing: UploadTiming;
  signal?: AbortSignal;
}

async function loadUpload(storage: Storage, accountId: string, requestId: string): Promise<UploadRequest> {
  const upload = await storage.uploads.find(accountId, requestId);
  if (!upload) throw new Error(`upload ${requestId} of ${accountId} not found`);
  return upload;
}

export async function beginUpload(deps: RunUploadDeps, input: { accountId: string; requestId: string }): Promise<void> {
  await deps.storage.uploads.markInProgress(input.accountId, input.requestId, deps.clock.now());
}

export async function finishUpload(deps: RunUploadDeps, input: { accountId: string; requestId: string }): Promise<void> {
  await deps.storage.uploads.markCompleted(input.accountId, input.requestId, deps.clock.now());
}

/**
 * Publishes one platform target of an upload, at most once per round: the dispatch is recorded
 * before the network is called, so an attempt that finds an earlier dispatch of the same round
 * knows the network may already have the post and says so in the result's warnings.
 */
export async function publishTarget(deps: RunUploadDeps, input: PublishTargetInput): Promise<TargetOutcome> {
  const upload = await loadUpload(deps.storage, input.accountId, input.requestId);
  const stored = upload.results[input.platform];
  if (stored) return { kind: 'done', result: stored };

  const now = () => deps.clock.now().toISOString();
  const fail = (error: string, error_code: string, warnings: string[] = []): TargetResult =>
    ({ platform: input.platform, success: false, error, error_code, warnings, finished_at: now() });

  const target = upload.targets.find((t) => t.platform === input.platform);
  const connection = target ? await deps.storage.connectedAccounts.findById(target.connectedAccountId) : null;
  const publisher = deps.platforms.get(input.platform)?.textPublisher;
  let result: TargetResult;
  if (!target || !connection || connection.status === 'disconnected') {
    result = fail(`No ${input.platform} account is connected to profile "${upload.profileUsername}" any more.`, 'account_not_connected');
  } else if (connection.status === 'reauth_required') {
    result = fail(`The ${input.platform} account must be reconnected before it can publish.`, 'reauth_required');
  } else if (!publisher) {
    result = fail(`Herald has no ${input.platform} text publisher.`, 'platform_not_supported');
  } else {
    const warnings: string[] = [];
    const previous = upload.dispatches[input.platform];
    const dispatchMarker = input.round * 1000 + input.attempt;
    if (previous && previous.attempt >= input.round * 1000 && previous.attempt < dispatchMarker) {
      warnings.push('A previous attempt was interrupted while the network was being called; it was sent again. If the network had already received it, it may appear twice.');
    }
    await deps.storage.uploads.recordDispatch(input.accountId, input.requestId, input.platform, dispatchMarker, deps.clock.now());
    try {
      const credentials = JSON.parse(deps.secrets.open(connection.sealedCredentials)) as PlatformCredentials;
      const outcome = await publisher.publishText(
        { credentials, idempotencyKey: `${input.accountId}:${input.requestId}:${input.platform}`, signal: input.signal },
        { text: target.title, settings: target.settings },
      );
      result = {
        platform: input.platform,
        success: true,
        post_id: outcome.postId,
        ...(outcome.url ? { url: outcome.url } : {}),
        warnings: [...warnings, ...outcome.warnings],
        ...outcome.extra,
        finished_at: now(),
      };
    } catch (err) {
      if (!(err instanceof PlatformError)) {
        result = fail(`Unexpected failure while publishing to ${input.platform}: ${(err as Error).message}`, 'internal_error', warnings);
      } else {
        const { failure } = err;
        const roundsLeft = input.round < input.timing.maxPlatformRetries;
        if (failure.kind === 'rate_limited' && roundsLeft && failure.retryAfterMs <= input.timing.maxRetryAfterMs) {
          return { kind: 'retry', afterMs: failure.retryAfterMs, reason: err.message };
        }
        if (failure.kind === 'transient' && roundsLeft) {
          return { kind: 'retry', afterMs: input.timing.transientBackoffMs * 2 ** input.round, reason: err.message };
        }
        if (failure.kind === 'auth_expired') {
          await deps.storage.connectedAccounts.setStatus(connection.id, 'reauth_required', deps.clock.now());
        }
        result = fail(err.message, failureErrorCode(failure), warnings);
        if (failure.kind === 'restricted') {
          Object.assign(result, { restriction_reason: failure.reason, restricted_until: failure.until.toISOString() });
        }
      }
    }
  }

  await deps.storage.uploads.recordResult(input.accountId, input.requestId, result, deps.clock.now());
  const final = (await loadUpload(deps.storage, input.accountId, input.requestId)).results[input.platform] ?? result;
  await emitUploadCompleted(deps, upload, final);
  return { kind: 'done', result: final };
}

async function emitUploadCompleted(deps: RunUploadDeps, upload: UploadRequest, result: TargetResult): Promise<void> {
  const operator = await deps.storage.operators.findById(upload.accountId);
  await deps.notifier.emit({
    event: 'upload_completed',
    account_id: upload.accountId,
    ...(upload.jobId ? { job_id: upload.jobId } : {}),
    request_id: upload.requestId,
    user_email: operator?.email ?? '',
    profile_username: upload.profileUsername,
    platform: result.platform,
    media_type: upload.mediaType,
    title: upload.content.title,
    caption: upload.content.description ?? upload.content.title,
    result: {
      success: result.success,
      url: result.url ?? null,
      publish_id: result.post_id ?? null,
      post_id: result.post_id ?? null,
      error: result.success ? null : (result.error ?? 'failed'),
    },
    created_at: deps.clock.now().toISOString(),
  }, `upload_completed:${upload.accountId}:${upload.requestId}:${result.platform}`);
}
