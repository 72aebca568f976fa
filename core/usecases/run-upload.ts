import { failureErrorCode, PlatformError } from '../domain/errors';
import type { LifecycleSettings } from '../domain/connection-lifecycle';
import { precheckFailure, type ConnectedAccount } from '../domain/connected-account';
import type { Platform } from '../domain/platforms';
import type { PublishTarget, TargetResult, UploadRequest } from '../domain/upload';
import type { PlatformAdapter } from '../ports/platform';
import type { Notifier } from '../ports/notifications';
import type { AccountPauses } from '../ports/account-pauses';
import type { CheckpointProbes } from '../ports/checkpoint-probes';
import type {
  MediaAccess, PlatformRegistry, PublishContext, PublishPost, PublishStep,
} from '../ports/platform';
import { postRefOf } from '../ports/platform';
import type { Storage } from '../ports/storage';
import type { CredentialLeases } from '../ports/credential-leases';
import type { DispatchClaims } from '../ports/dispatch-claims';
import { withConnection } from './connection-session';
import type { Clock, SecretBox } from '../ports/system';
import type { UploadTiming } from '../ports/upload-runner';
import type { Metrics } from '../ports/metrics';

/** The steps of a running upload. The workflow calls them as activities; they hold no state. */
export interface RunUploadDeps {
  storage: Pick<Storage, 'uploads' | 'connectedAccounts' | 'operators'>;
  platforms: PlatformRegistry;
  secrets: SecretBox;
  notifier: Notifier;
  clock: Clock;
  media: MediaAccess;
  pauses?: AccountPauses;
  checkpointProbes?: CheckpointProbes;
  leases?: CredentialLeases;
  /** One execution at a time per publish call (see DispatchClaims); within this process when absent. */
  claims?: DispatchClaims;
  /** Lifecycle thresholds (auth strikes, refresh failures); defaults in core/domain/connection-lifecycle.ts. */
  lifecycleSettings?: Partial<LifecycleSettings>;
  /** Counts published and failed targets, publish latency and account pauses (core/ports/metrics.ts). */
  metrics?: Metrics;
}

export type TargetOutcome =
  | { kind: 'done'; result: TargetResult }
  /** The network asked to come back later: the workflow waits durably and starts the call again. */
  | { kind: 'retry'; afterMs: number; reason: string }
  /** The network is processing: the workflow waits durably and resumes with `state`. */
  | { kind: 'wait'; afterMs: number; state: Record<string, unknown> }
  /** The account is paused until `untilIso` with a verdict to retry after: the workflow waits, then calls once more. */
  | { kind: 'paused'; untilIso: string; reason: string }
  /** Another execution of this very call is still running: come back after `afterMs` and ask again (same round and step). */
  | { kind: 'busy'; afterMs: number };

export interface PublishTargetInput {
  accountId: string;
  requestId: string;
  platform: Platform;
  /** Which "come back later" round this is (0 first). */
  round: number;
  /** Which resume of a multi-step publish this is (0 = the first call). */
  step: number;
  /** The state of the previous `wait`, when resuming. */
  resume?: Record<string, unknown>;
  /** The execution attempt of this call (1 first); above 1 the previous attempt died mid-flight. */
  attempt: number;
  /**
   * The caller waits out pauses the spec retries after ("paused 2 hours, then retried"): such a
   * verdict answers `paused` instead of failing. Unset for the call after the pause (a second
   * verdict fails for good) and by callers that cannot wait.
   */
  waitOutPause?: boolean;
  /**
   * The caller handles `busy` by calling again later. Callers that predate it get an error instead,
   * which their activity retry policy turns into the same later call.
   */
  busyAware?: boolean;
  timing: UploadTiming;
  signal?: AbortSignal;
}

/**
 * A dispatch marker packs (generation, round, step, attempt) into the one number the storage port
 * keeps, so a later execution can tell "an earlier execution of this very call was interrupted" from
 * "an earlier call". The generation is the upload's retry count: a retried upload starts afresh.
 * Markers stored before generations existed read as generation 0.
 */
const dispatchMarker = (generation: number, round: number, step: number, attempt: number) =>
  generation * 1_000_000_000 + round * 1_000_000 + step * 1_000 + attempt;
const callOf = (generation: number, round: number, step: number) => generation * 1_000_000 + round * 1_000 + step;
const sameCall = (marker: number, generation: number, round: number, step: number) =>
  Math.floor(marker / 1_000) === callOf(generation, round, step);

/** Dispatch claims within one process: for single-process runs and tests (the worker uses the database's). */
function localDispatchClaims(now: () => number = Date.now): DispatchClaims {
  const held = new Map<string, { holder: symbol; renewedAt: number; ttlMs: number }>();
  return {
    async claim(callKey, { ttlMs }) {
      const current = held.get(callKey);
      const at = now();
      if (current && at - current.renewedAt < current.ttlMs) return { kind: 'busy', retryInMs: current.renewedAt + current.ttlMs - at };
      const holder = Symbol(callKey);
      held.set(callKey, { holder, renewedAt: at, ttlMs });
      const beat = setInterval(() => {
        const mine = held.get(callKey);
        if (mine?.holder === holder) mine.renewedAt = now();
      }, Math.max(50, Math.floor(ttlMs / 3)));
      return { kind: current ? 'taken_over' : 'claimed', stop: () => clearInterval(beat) };
    },
  };
}
const processClaims = localDispatchClaims();

async function loadUpload(storage: Pick<Storage, 'uploads'>, accountId: string, requestId: string): Promise<UploadRequest> {
  const upload = await storage.uploads.find(accountId, requestId);
  if (!upload) throw new Error(`upload ${requestId} of ${accountId} not found`);
  return upload;
}

/** Lifts a pause whose time has passed (the pause workflow's timer fired); a newer pause stays. */
export async function clearExpiredRestriction(deps: Pick<RunUploadDeps, 'storage' | 'clock'>, input: { connectionId: string }): Promise<boolean> {
  const connection = await deps.storage.connectedAccounts.findById(input.connectionId);
  if (!connection?.restriction || connection.restriction.until > deps.clock.now()) return false;
  await deps.storage.connectedAccounts.setRestriction(connection.id, null, deps.clock.now());
  return true;
}

/** Marks the upload in progress; false when it must not run (cancelled while scheduled). */
export async function beginUpload(deps: RunUploadDeps, input: { accountId: string; requestId: string }): Promise<boolean> {
  const status = await deps.storage.uploads.markInProgress(input.accountId, input.requestId, deps.clock.now());
  return status === 'in_progress';
}

export async function finishUpload(deps: RunUploadDeps, input: { accountId: string; requestId: string }): Promise<void> {
  await deps.storage.uploads.markCompleted(input.accountId, input.requestId, deps.clock.now());
}

/** What `publishOnlyTarget` did: nothing (the upload must not run), or its target's outcome. */
export type OnlyTargetOutcome = { begun: false } | { begun: true; outcome: TargetOutcome };

/**
 * An upload with one target, in one step: begin, the target's call, and finish when the call is
 * done (one local activity for the workflow instead of three). A call that has to wait or come
 * back later returns its outcome; the workflow goes on with the regular publish activity and
 * finishes the upload itself. Each part is the same as alone, so a repeated step is harmless.
 */
export async function publishOnlyTarget(deps: RunUploadDeps, input: PublishTargetInput): Promise<OnlyTargetOutcome> {
  const begun = await deps.storage.uploads.begin(input.accountId, input.requestId, deps.clock.now());
  if (begun?.status !== 'in_progress') return { begun: false };
  const outcome = await publishTarget(deps, input, begun.upload);
  if (outcome.kind === 'done') await finishUpload(deps, input);
  return { begun: true, outcome };
}

function postOf(upload: UploadRequest, target: PublishTarget): PublishPost {
  return {
    kind: upload.mediaType,
    title: target.title,
    ...(upload.content.description !== undefined ? { description: upload.content.description } : {}),
    media: upload.content.media ?? [],
    settings: target.settings,
  };
}

/** Calls the network as the target's account (see withConnection: refresh ahead, once on expiry, reauth). */
function callNetwork(
  deps: RunUploadDeps, connection: ConnectedAccount, input: PublishTargetInput, run: (ctx: PublishContext) => Promise<PublishStep>,
): Promise<{ step: PublishStep; ctx: PublishContext }> {
  return withConnection(deps, connection, async (call) => {
    const ctx: PublishContext = { ...call, idempotencyKey: `${input.accountId}:${input.requestId}:${input.platform}`, media: deps.media };
    return { step: await run(ctx), ctx };
  }, input.signal ? { signal: input.signal } : {});
}

/**
 * Publishes one platform target of an upload: one call per round and step. The call is claimed
 * before the network is called (DispatchClaims): a second execution of the same call waits while
 * the first is alive, and one that takes over from an execution that died knows the network may
 * already have the post and says so in the result's warnings.
 */
export async function publishTarget(deps: RunUploadDeps, input: PublishTargetInput, begun?: UploadRequest): Promise<TargetOutcome> {
  // `begun`: the upload as the call that began it left it (publishOnlyTarget), read no more.
  const upload = begun ?? await loadUpload(deps.storage, input.accountId, input.requestId);
  const stored = upload.results[input.platform];
  if (stored) return { kind: 'done', result: stored };

  const fail = (error: string, error_code: string): TargetResult =>
    ({ platform: input.platform, success: false, error, error_code, warnings: [], finished_at: deps.clock.now().toISOString() });

  const target = upload.targets.find((t) => t.platform === input.platform);
  const connection = target ? await deps.storage.connectedAccounts.findById(target.connectedAccountId) : null;
  const adapter = deps.platforms.get(input.platform);
  let result: TargetResult;
  if (!target || !connection || connection.status === 'disconnected') {
    result = fail(`No ${input.platform} account is connected to profile "${upload.profileUsername}" any more.`, 'account_not_connected');
  } else if (connection.status === 'reauth_required') {
    result = fail(`The ${input.platform} account must be reconnected before it can publish.`, 'reauth_required');
  } else if (input.round === 0 && input.step === 0 && precheckFailure(connection, deps.clock.now())) {
    // Checked again when the post runs (scheduled posts, or a pause that began meanwhile).
    const refused = precheckFailure(connection, deps.clock.now())!;
    result = { ...fail(String(refused.error), String(refused.error_code)), ...refused };
    // Idempotent: also starts the probe when a retry follows an attempt that flagged but could not start it.
    if (connection.checkpointRequired && adapter?.probe) await deps.checkpointProbes?.flagged(connection);
  } else if (!adapter?.publisher) {
    result = fail(`Herald cannot publish to ${input.platform} yet.`, 'platform_not_supported');
  } else {
    const warnings = [...(target.warnings ?? [])];
    const generation = upload.retryCount ?? 0;
    const claim = await (deps.claims ?? processClaims).claim(
      `${input.accountId}:${input.requestId}:${input.platform}:${generation}:${input.round}:${input.step}`,
      { ttlMs: input.timing.heartbeatTimeoutMs },
    );
    if (claim.kind === 'busy') {
      if (input.busyAware) return { kind: 'busy', afterMs: claim.retryInMs };
      throw new Error(`Another execution of this ${input.platform} publish is still running; this one tries again later.`);
    }
    try {
      return await dispatch(deps, input, { upload, target, connection, adapter, publisher: adapter.publisher, warnings, generation, takenOver: claim.kind === 'taken_over' });
    } finally {
      claim.stop();
    }
  }
  return finish(deps, upload, result);
}

interface Dispatch {
  upload: UploadRequest;
  target: PublishTarget;
  connection: ConnectedAccount;
  adapter: PlatformAdapter;
  publisher: NonNullable<PlatformAdapter['publisher']>;
  warnings: string[];
  generation: number;
  /** An earlier execution of this call stopped mid-call (its claim lapsed). */
  takenOver: boolean;
}

/** The network call of a claimed publish, and what its answer means for the target. */
async function dispatch(deps: RunUploadDeps, input: PublishTargetInput, d: Dispatch): Promise<TargetOutcome> {
  const { upload, target, connection, adapter, publisher, warnings } = d;
  const now = () => deps.clock.now().toISOString();
  const fail = (error: string, error_code: string): TargetResult =>
    ({ platform: input.platform, success: false, error, error_code, warnings, finished_at: now() });
  if (d.takenOver) {
    // The earlier execution may have finished between our read and the claim.
    const stored = (await deps.storage.uploads.find(input.accountId, input.requestId))?.results[input.platform];
    if (stored) return { kind: 'done', result: stored };
  }
  // Markers written by earlier versions (before claims) still tell of an interrupted attempt.
  const previous = upload.dispatches[input.platform];
  const interrupted = d.takenOver || (previous !== undefined && sameCall(previous.attempt, d.generation, input.round, input.step)
    && previous.attempt < dispatchMarker(d.generation, input.round, input.step, input.attempt));
  if (interrupted) {
    warnings.push('A previous attempt was interrupted while the network was being called; it was sent again. If the network had already received it, it may appear twice.');
  }
  let result: TargetResult;
  {
    const post = postOf(upload, target);
    try {
      const { step, ctx } = await callNetwork(deps, connection, input, (c) =>
        input.resume && publisher.resume ? publisher.resume(c, post, input.resume) : publisher.publish(c, post));
      if (step.kind === 'wait') return { kind: 'wait', afterMs: step.afterMs, state: step.state };
      const { outcome } = step;
      result = {
        platform: input.platform,
        success: true,
        post_id: outcome.postId,
        ...(outcome.url ? { url: outcome.url } : {}),
        warnings: [...warnings, ...outcome.warnings],
        ...outcome.extra,
        finished_at: now(),
      };
      if (target.firstComment) {
        // A first comment never fails the publish: every problem becomes a warning.
        if (!adapter.comments) {
          result.warnings.push(`First comments are not supported on ${input.platform}; it was skipped.`);
        } else {
          try {
            const comment = await adapter.comments.create(ctx, { post: postRefOf(outcome), text: target.firstComment });
            result.first_comment_posted = Boolean(comment.comment);
            result.warnings.push(...(comment.warnings ?? []));
          } catch (err) {
            result.first_comment_posted = false;
            result.warnings.push(`The first comment was not posted: ${(err as Error).message}`);
          }
        }
      }
    } catch (err) {
      if (!(err instanceof PlatformError)) {
        result = fail(`Unexpected failure while publishing to ${input.platform}: ${(err as Error).message}`, 'internal_error');
      } else {
        const { failure } = err;
        const roundsLeft = input.round < input.timing.maxPlatformRetries;
        if (failure.kind === 'rate_limited' && roundsLeft && failure.retryAfterMs <= input.timing.maxRetryAfterMs) {
          return { kind: 'retry', afterMs: failure.retryAfterMs, reason: err.message };
        }
        if (failure.kind === 'transient' && roundsLeft) {
          return { kind: 'retry', afterMs: input.timing.transientBackoffMs * 2 ** input.round, reason: err.message };
        }
        result = { ...fail(err.message, failureErrorCode(failure)), ...err.resultFields };
        if (failure.kind === 'restricted') {
          Object.assign(result, { restriction_reason: failure.reason, restricted_until: failure.until.toISOString() });
          // A verdict that keeps failing pauses the account: later posts are refused at precheck.
          const restriction = { reason: failure.reason, until: failure.until, ...(failure.code ? { code: failure.code } : {}) };
          await deps.storage.connectedAccounts.setRestriction(connection.id, restriction, deps.clock.now());
          deps.metrics?.inc('herald_account_pauses_total', { network: input.platform, reason: failure.reason });
          await deps.pauses?.paused(connection, restriction);
          if (failure.retryAfterPause && input.waitOutPause) return { kind: 'paused', untilIso: failure.until.toISOString(), reason: err.message };
        }
        if (failure.kind === 'checkpoint') {
          await deps.storage.connectedAccounts.setCheckpointRequired(connection.id, true, deps.clock.now());
          // Networks that can be asked whether the checkpoint is gone lift the flag by themselves.
          if (adapter.probe) await deps.checkpointProbes?.flagged(connection);
        }
      }
    }
  }

  return finish(deps, upload, result);
}

/** Stores the target's result and emits its event. An earlier attempt's stored result stands and is reported. */
async function finish(deps: RunUploadDeps, upload: UploadRequest, result: TargetResult): Promise<TargetOutcome> {
  const final = await deps.storage.uploads.recordResult(upload.accountId, upload.requestId, result, deps.clock.now(), upload);
  if (deps.metrics && final.finished_at === result.finished_at) countResult(deps.metrics, upload, final, deps.clock.now());
  await emitUploadCompleted(deps, upload, final);
  return { kind: 'done', result: final };
}

/** A target's result, counted once by the call that stored it. */
function countResult(metrics: Metrics, upload: UploadRequest, result: TargetResult, now: Date): void {
  const network = result.platform;
  if (result.success) {
    metrics.inc('herald_uploads_completed_total', { network });
    // From when the target was due: its scheduled time, or when it was accepted.
    const due = upload.scheduledFor ?? upload.createdAt;
    metrics.observe('herald_publish_latency_seconds', { network }, Math.max(0, (now.getTime() - due.getTime()) / 1000));
  } else {
    metrics.inc('herald_uploads_failed_total', { network, error_code: String(result.error_code ?? 'failed') });
  }
}

export async function emitUploadCompleted(deps: RunUploadDeps, upload: UploadRequest, result: TargetResult): Promise<void> {
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
      // The network's own publish id (TikTok's, from the adapter's extra), never the post id.
      publish_id: typeof result.publish_id === 'string' ? result.publish_id : null,
      post_id: result.post_id ?? null,
      error: result.success ? null : (result.error ?? 'failed'),
    },
    created_at: deps.clock.now().toISOString(),
  }, `upload_completed:${upload.accountId}:${upload.requestId}:${upload.retryCount ?? 0}:${result.platform}`);
}
