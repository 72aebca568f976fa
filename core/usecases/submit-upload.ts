import { networkCodeFor } from '../domain/error-codes';
import { forbidden, HeraldError, invalidInput, redditUnavailable, sentences, type CodeOfKind } from '../domain/errors';
import { PLANS } from '../domain/plans';
import type { MediaRef } from '../domain/media';
import { mediaLimitViolations } from '../domain/media-limits';
import type { OperatorAccount } from '../domain/operator';
import type { Profile } from '../domain/profile';
import { PLATFORMS, UNAVAILABLE_PLATFORMS, type MediaKind, type Platform } from '../domain/platforms';
import { resolveSettings } from '../domain/settings';
import { COMMON_UPLOAD_FIELD_NAMES, IDENTITY_UPLOAD_FIELDS } from '../domain/upload-fields';
import type { PublishTarget, TargetResult, UploadRequest } from '../domain/upload';
import { precheckFailure } from '../domain/connected-account';
import { textLengthOf, type MediaAccess, type PlatformRegistry } from '../ports/platform';
import type { SecretBox } from '../ports/system';
import { withConnection } from './connection-session';
import { DuplicateKeyError, type Storage } from '../ports/storage';
import type { Clock, IdGenerator } from '../ports/system';
import { PlatformError } from '../domain/errors';
import type { UploadRunner } from '../ports/upload-runner';
import type { CredentialLeases } from '../ports/credential-leases';
import type { DuplicateWindow } from '../ports/duplicate-window';
import { requireProfile } from './profiles';
import type { Metrics } from '../ports/metrics';
import { reserveQueueSlot } from './queue';
import { capExceeded, type CapViolation } from './caps';

export interface SubmitDeps {
  storage: Pick<Storage, 'uploads' | 'profiles' | 'connectedAccounts' | 'queues'>;
  /** Digest for duplicate protection (SHA-256 in production). */
  hasher: { hash(text: string): string };
  /** Identical uploads within this window return the existing request; 0 (or no `duplicates`) turns it off. */
  duplicateWindowMs?: number;
  /** Where the window's claims live (Redis: shared by every API process). */
  duplicates?: DuplicateWindow;
  /** With these, networks' read-only prechecks run at intake (TikTok privacy levels). */
  secrets?: SecretBox;
  media?: MediaAccess;
  leases?: CredentialLeases;
  platforms: PlatformRegistry;
  runner: UploadRunner;
  ids: IdGenerator;
  clock: Clock;
  log?: (message: string, fields: Record<string, unknown>) => void;
  /** Counts targets accepted and refused at intake. */
  metrics?: Metrics;
}

export interface UploadInput {
  kind: MediaKind;
  profileUsername: string;
  platforms: Platform[];
  title: string;
  description?: string;
  /** Photos or the video, already in the media store, in request order. */
  media: MediaRef[];
  /**
   * Every other request field as sent (form values are text): `<platform>_title`,
   * `<platform>_first_comment`, `first_comment` and the networks' own settings.
   */
  fields: Record<string, unknown>;
  requestId?: string;
  externalId?: string;
  /** A scheduled post: when it runs (already validated) and the zone its date was given in. */
  schedule?: { at: Date; timezone: string };
  /** add_to_queue: the post takes the next free slot of the profile's queue. */
  queue?: { maxPostsPerSlot?: number };
  async: boolean;
  /** Notices from the edge, kept with the upload. */
  warnings: string[];
  /** How long a synchronous request waits before it switches to asynchronous. */
  syncTimeoutMs: number;
}

export interface SubmitResult {
  upload: UploadRequest;
  /** The request id existed already: this is the earlier request, nothing new was started. */
  duplicate: boolean;
  finished: boolean;
}

const text = (value: unknown): string | undefined => {
  const v = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof v === 'string' ? v : undefined;
};

/** Runs each network's read-only precheck; what the caller must fix answers 400 with the network's code. */
async function networkPrechecks(deps: SubmitDeps, account: OperatorAccount, input: UploadInput, targets: PublishTarget[]): Promise<void> {
  if (!deps.secrets || !deps.media) return;
  const { secrets, media } = deps;
  const refused: Array<{ platform: Platform; error_code: CodeOfKind<'invalid_input'>; message: string }> = [];
  for (const target of targets) {
    const adapter = deps.platforms.get(target.platform);
    const connection = adapter?.publisher?.precheck ? await deps.storage.connectedAccounts.findById(target.connectedAccountId) : null;
    if (!adapter?.publisher?.precheck || !connection) continue;
    try {
      const { precheck } = adapter.publisher;
      await withConnection({ ...deps, secrets }, connection, (ctx) => precheck({ ...ctx, idempotencyKey: `precheck:${account.id}`, media }, {
        kind: input.kind, title: target.title, ...(input.description !== undefined ? { description: input.description } : {}), media: input.media, settings: target.settings,
      }));
    } catch (err) {
      // Only "fix your request" answers stop the post; anything else is the publish's business.
      if (err instanceof PlatformError && err.failure.kind === 'invalid_content') {
        refused.push({ platform: target.platform, error_code: networkCodeFor(err.failure.code, 400, 'invalid_content'), message: err.message });
      }
    }
  }
  if (refused.length) throw invalidInput(sentences(refused.map((r) => `${r.platform}: ${r.message}`)), { violations: refused }, refused[0]!.error_code);
}

export interface CheckOptions {
  /**
   * The post is an edit of one already accepted: it is not a new upload (the monthly quota
   * counted it once, at intake), and as a scheduled post it meets the caps when it is due.
   */
  edit?: boolean;
}

/**
 * What admission found: the earlier request with the same request id (answered as is), or the
 * profile a new post is for.
 */
export type Admission = { existing: UploadRequest; profile?: undefined } | { existing?: undefined; profile: Profile };

/**
 * Admission, once per request: a repeated request id finds its earlier request; otherwise plan,
 * monthly quota, endpoint support and the profile are checked. The edge runs it before the
 * request's files are stored (a request that must fail never costs a 1 GB copy) and hands the
 * result to `submitUpload`, which then does not check again.
 */
export async function admitUpload(
  deps: Pick<SubmitDeps, 'storage' | 'platforms' | 'clock'>, account: OperatorAccount,
  input: Pick<UploadInput, 'kind' | 'platforms' | 'profileUsername' | 'requestId'>,
): Promise<Admission> {
  if (input.requestId) {
    const existing = await deps.storage.uploads.find(account.id, input.requestId);
    if (existing) return { existing };
  }
  return { profile: await precheckUpload(deps, account, input) };
}

/** 429 `monthly_quota_exceeded` when the plan's uploads of this month are used up (also before a file is staged for a post). */
export async function checkMonthlyQuota(deps: { storage: Pick<SubmitDeps['storage'], 'uploads'>; clock: SubmitDeps['clock'] }, account: OperatorAccount): Promise<void> {
  const plan = PLANS[account.plan];
  if (plan.uploadsPerMonth === null) return;
  const now = deps.clock.now();
  const used = await deps.storage.uploads.countSince(account.id, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
  if (used >= plan.uploadsPerMonth) {
    throw new HeraldError('too_many_requests', `Monthly upload quota reached: ${used} of ${plan.uploadsPerMonth} uploads used on the ${plan.name} plan this month.`,
      'monthly_quota_exceeded', { usage: { used, limit: plan.uploadsPerMonth, plan: plan.name } });
  }
}

/** The checks that need no media; the post's profile when they pass. */
export async function precheckUpload(
  deps: Pick<SubmitDeps, 'storage' | 'platforms' | 'clock'>, account: OperatorAccount, input: Pick<UploadInput, 'kind' | 'platforms' | 'profileUsername'>,
  opts: CheckOptions = {},
): Promise<Profile> {
  if (input.platforms.some((p) => UNAVAILABLE_PLATFORMS.includes(p))) throw redditUnavailable();
  const plan = PLANS[account.plan];
  for (const platform of input.platforms) {
    const descriptor = deps.platforms.get(platform)?.descriptor;
    if (descriptor?.rules?.excludedPlans?.includes(plan.name)) {
      throw forbidden(`The ${plan.name} plan does not include ${descriptor.displayName} posting: upgrade the plan or remove ${platform} from platform[].`, `${platform}_not_in_plan`);
    }
  }
  if (!opts.edit) await checkMonthlyQuota(deps, account);
  // The networks whose descriptor names this endpoint, in the API's platform order.
  const supported = PLATFORMS.filter((p) => {
    const adapter = deps.platforms.get(p);
    return adapter?.publisher && adapter.descriptor.endpoints.includes(input.kind);
  });
  const unsupported = input.platforms.filter((p) => !supported.includes(p));
  if (unsupported.length) {
    throw invalidInput(`The ${input.kind} endpoint cannot publish to ${unsupported.join(', ')}. Supported: ${supported.join(', ')}.`,
      { unsupported_platforms: unsupported, supported_platforms: supported }, 'platform_not_supported');
  }
  return requireProfile(deps.storage, account.id, input.profileUsername);
}

/** `profile`: admission has run already (its profile); otherwise the prechecks run here. */
export async function buildTargets(
  deps: SubmitDeps, account: OperatorAccount, input: UploadInput, opts: CheckOptions & { profile?: Profile } = {},
): Promise<{ targets: PublishTarget[]; warnings: string[]; prechecked: TargetResult[] }> {
  const profile = opts.profile ?? await precheckUpload(deps, account, input, opts);
  if (input.kind === 'video' && input.media.filter((m) => m.kind === 'video').length !== 1) {
    throw invalidInput('video is required: exactly one video file or URL.', { violations: [{ field: 'video', message: 'exactly one video is required' }] });
  }
  if (input.kind === 'document' && input.media.filter((m) => m.kind === 'document').length !== 1) {
    throw invalidInput('document is required: exactly one PDF, PPT, PPTX, DOC or DOCX file.', { violations: [{ field: 'document', message: 'exactly one document file is required' }] });
  }
  if (input.kind === 'photo' && input.media.length === 0) {
    throw invalidInput('photos[] is required: at least one photo file or URL.', { violations: [{ field: 'photos[]', message: 'at least one photo is required' }] });
  }

  const violations: Array<Record<string, unknown>> = [];
  const consumed = new Set<string>();
  // A page or location pinned to the profile wins over the request's value.
  const pins = profile.pins ?? {};
  const fieldsWithPins = { ...input.fields, ...pins };
  const targets: PublishTarget[] = [];
  const prechecked: TargetResult[] = [];
  const caps: CapViolation[] = [];
  // Scheduled and queued posts meet the caps when they are due (postponeIfCapped), not now.
  const checkCaps = !input.schedule && !input.queue && !opts.edit;
  for (const platform of input.platforms) {
    const adapter = deps.platforms.get(platform)!;
    const connection = await deps.storage.connectedAccounts.find(account.id, input.profileUsername, platform);
    if (!connection || connection.status === 'disconnected') {
      violations.push({ platform, type: 'not_connected', message: `No ${platform} account is connected to profile "${input.profileUsername}".` });
      continue;
    }
    const capViolation = checkCaps ? await capExceeded(deps, platform, connection.id, deps.clock.now()) : null;
    if (capViolation) caps.push(capViolation);
    // A paused or checkpointed account is refused before anything is sent; other platforms go on.
    const refused = precheckFailure(connection, deps.clock.now());
    if (refused) prechecked.push({ platform, success: false, warnings: [], finished_at: deps.clock.now().toISOString(), ...refused } as TargetResult);
    const title = text(input.fields[`${platform}_title`]) ?? input.title;
    const max = adapter.descriptor.limits.textMaxChars;
    if (input.kind === 'text' && !title.trim()) {
      violations.push({ platform, type: 'empty_text', message: `The ${platform} post has no text: send title or ${platform}_title.` });
    } else if (input.kind === 'video' && adapter.descriptor.rules?.titleRequiredForVideo && !title.trim()) {
      violations.push({ platform, field: 'title', type: 'required', message: `${platform} needs a title: send title or ${platform}_title.` });
    } else if (max !== undefined && textLengthOf(adapter.descriptor, title) > max) {
      // Counted the way the network counts (code points, graphemes, X's weighting): the adapter applies the same rule.
      const length = textLengthOf(adapter.descriptor, title);
      violations.push({ platform, type: 'text_too_long', limit: max, length, message: `${platform} accepts at most ${max} characters; this text has ${length}.` });
    }
    violations.push(...mediaLimitViolations(adapter.descriptor, input.kind, input.media).map((v) => ({ ...v })));

    const settings = resolveSettings(platform, adapter.descriptor.settings, fieldsWithPins, { endpoint: input.kind, mediaCount: input.media.length });
    settings.consumed.forEach((f) => consumed.add(f));
    violations.push(...settings.violations.map((v) => ({ platform, field: v.field, type: 'invalid_field', message: `${platform}: ${v.message}` })));

    const firstComment = text(input.fields[`${platform}_first_comment`]) ?? text(input.fields.first_comment);
    targets.push({
      platform,
      connectedAccountId: connection.id,
      title,
      settings: settings.values,
      ...(firstComment?.trim() ? { firstComment } : {}),
      ...(settings.warnings.length ? { warnings: settings.warnings } : {}),
    });
  }
  if (violations.length) throw invalidInput(sentences(violations.map((v) => v.message)), { violations });
  if (caps.length) {
    throw new HeraldError('too_many_requests', sentences(caps.map((c) => c.message)),
      caps.some((c) => c.type === 'hard_cap') ? 'daily_cap_reached' : 'rate_cap_reached',
      { violations: caps.map(({ message: _m, ...v }) => v) });
  }

  // Fields no targeted network uses are reported, never silently dropped.
  const ignored = Object.keys(input.fields).filter((f) => !COMMON_UPLOAD_FIELD_NAMES.has(f) && !consumed.has(f));
  const warnings = ignored.map((f) => `Field "${f}" is not used by ${input.platforms.join(', ')} on this endpoint and was ignored.`);
  if (['first_comment_media', 'first_comment_media[]'].some((f) => input.fields[f] !== undefined)) {
    // The spec's inline comment images are for reddit only, which is unavailable.
    warnings.push('first_comment_media[] applies to reddit first comments only and was ignored.');
  }
  return { targets, warnings, prechecked };
}

/**
 * The duplicate window: claims the content's digest for this request, or finds the earlier
 * upload holding it. A claim whose upload was cancelled, or never stored (its request failed
 * without giving the claim up), passes to this request. One Redis round trip in the common case.
 */
async function claimContent(
  deps: SubmitDeps, accountId: string, contentHash: string, requestId: string,
): Promise<{ twin?: UploadRequest; release(): Promise<void> }> {
  const { duplicates, duplicateWindowMs } = deps;
  if (!duplicates || !duplicateWindowMs) return { release: async () => undefined };
  const key = `${accountId}:${contentHash}`;
  const release = () => duplicates.release(key, requestId).catch(() => undefined);
  for (let attempt = 0; attempt < 2; attempt++) {
    const holder = await duplicates.claim(key, requestId, duplicateWindowMs);
    if (holder === null || holder === requestId) return { release };
    const twin = await deps.storage.uploads.find(accountId, holder);
    if (twin && twin.status !== 'cancelled') return { twin, release: async () => undefined };
    await duplicates.release(key, holder);
  }
  // Another request took the freed claim meanwhile: no twin to answer with, so this one goes on.
  return { release: async () => undefined };
}

/**
 * Accepts a post (text, photos or video) for several platforms and hands it to the durable
 * runner. A repeated request id returns the earlier request instead of publishing again.
 * Synchronous requests wait up to `syncTimeoutMs`, then answer like asynchronous ones while the
 * upload goes on. `admission`: the result of `admitUpload` when the caller ran it already.
 */
export async function submitUpload(deps: SubmitDeps, account: OperatorAccount, input: UploadInput, admission?: Admission): Promise<SubmitResult> {
  const admitted = admission ?? await admitUpload(deps, account, input);
  if (admitted.existing) return { upload: admitted.existing, duplicate: true, finished: admitted.existing.status === 'completed' };
  const contentHash = deps.hasher.hash(JSON.stringify([
    input.kind, input.profileUsername, [...input.platforms].sort(), input.title, input.description ?? '',
    input.media.map((m) => m.id), Object.entries(input.fields).filter(([k]) => !IDENTITY_UPLOAD_FIELDS.has(k)).sort(),
    input.schedule?.at.toISOString() ?? null,
  ]));
  const { targets, warnings, prechecked } = await buildTargets(deps, account, input, { profile: admitted.profile });
  await networkPrechecks(deps, account, input, targets);
  const requestId = input.requestId ?? deps.ids.next('req');
  const claim = await claimContent(deps, account.id, contentHash, requestId);
  if (claim.twin) return { upload: claim.twin, duplicate: true, finished: claim.twin.status === 'completed' };
  if (prechecked.length === targets.length) {
    await claim.release();
    // Nothing could go out: refused as a whole, and not counted as an upload.
    const first = prechecked[0]!;
    const restricted = first.error_code === 'account_restricted';
    throw new HeraldError(restricted ? 'too_many_requests' : 'conflict', sentences(prechecked.map((p) => p.error)),
      restricted ? 'account_restricted' : networkCodeFor(first.error_code, 409, 'reauth_required'), {
        failure_stage: 'precheck',
        ...(first.retry_after_seconds ? { retry_after_seconds: first.retry_after_seconds } : {}),
        ...(first.reauth_required ? { reauth_required: true } : {}),
        results: Object.fromEntries(prechecked.map((p) => [p.platform, p])),
      });
  }
  const now = deps.clock.now();
  let schedule = input.schedule;
  let queueSlot: Date | undefined;
  if (input.queue) {
    queueSlot = await reserveQueueSlot(deps, account, input.profileUsername, requestId, input.queue.maxPostsPerSlot);
    const settings = await deps.storage.queues.getSettings(account.id, input.profileUsername);
    schedule = { at: queueSlot, timezone: settings?.timezone ?? 'UTC' };
  }
  const upload: UploadRequest = {
    accountId: account.id,
    requestId,
    profileUsername: input.profileUsername,
    mediaType: input.kind,
    content: {
      title: input.title,
      ...(input.description ? { description: input.description } : {}),
      ...(input.media.length ? { media: input.media } : {}),
    },
    targets,
    contentHash,
    status: schedule ? 'scheduled' : 'pending',
    async: input.async,
    ...(input.externalId ? { externalId: input.externalId } : {}),
    ...(schedule ? { jobId: deps.ids.next('job'), scheduledFor: schedule.at, timezone: schedule.timezone, fields: input.fields } : {}),
    ...(queueSlot ? { queueSlot } : {}),
    results: {},
    dispatches: {},
    warnings: [...input.warnings, ...warnings],
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.storage.uploads.insert(upload);
  } catch (err) {
    if (queueSlot) await deps.storage.queues.release(account.id, input.profileUsername, queueSlot, requestId);
    // The claim names this request id, which a concurrent request of the same id holds now: kept.
    if (!(err instanceof DuplicateKeyError)) {
      await claim.release();
      throw err;
    }
    // A concurrent request with the same id won: answer with its upload.
    const existing = (await deps.storage.uploads.find(account.id, upload.requestId))!;
    return { upload: existing, duplicate: true, finished: existing.status === 'completed' };
  }

  for (const result of prechecked) {
    await deps.storage.uploads.recordResult(account.id, upload.requestId, result, now, upload);
    upload.results[result.platform] = result;
    deps.metrics?.inc('herald_uploads_failed_total', { network: result.platform, error_code: String(result.error_code ?? 'precheck') });
  }
  for (const target of targets) {
    if (!upload.results[target.platform]) deps.metrics?.inc('herald_uploads_accepted_total', { network: target.platform });
  }
  try {
    await deps.runner.start(upload);
  } catch (err) {
    // Stored means accepted: the start reconciler picks up pending uploads whose workflow did not start.
    deps.log?.('upload stored but its workflow did not start yet; the reconciler will start it', {
      request_id: upload.requestId, error: (err as Error).message,
    });
    return { upload, duplicate: false, finished: false };
  }
  if (input.async || schedule) return { upload, duplicate: false, finished: false };

  const finished = await deps.runner.waitForCompletion(upload, input.syncTimeoutMs);
  const latest = await deps.storage.uploads.find(account.id, upload.requestId);
  if (!latest) throw new HeraldError('internal', `Upload ${upload.requestId} vanished while publishing.`);
  return { upload: latest, duplicate: false, finished: finished && latest.status === 'completed' };
}
