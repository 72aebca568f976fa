import { HeraldError, invalidInput, redditUnavailable } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { ENDPOINT_PLATFORMS, UNAVAILABLE_PLATFORMS, type Platform } from '../domain/platforms';
import type { PublishTarget, UploadRequest } from '../domain/upload';
import type { PlatformRegistry } from '../ports/platform';
import { DuplicateKeyError, type Storage } from '../ports/storage';
import type { Clock, IdGenerator } from '../ports/system';
import type { UploadRunner } from '../ports/upload-runner';
import { requireProfile } from './profiles';

export interface SubmitDeps {
  storage: Storage;
  platforms: PlatformRegistry;
  runner: UploadRunner;
  ids: IdGenerator;
  clock: Clock;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

export interface TextUploadInput {
  profileUsername: string;
  platforms: Platform[];
  title: string;
  description?: string;
  /** `<platform>_title` overrides. */
  platformTitles: Partial<Record<Platform, string>>;
  /** First comment per platform (`<platform>_first_comment`, else `first_comment`). */
  firstComments?: Partial<Record<Platform, string>>;
  requestId?: string;
  externalId?: string;
  async: boolean;
  /** Notices from the edge (ignored fields, …), kept with the upload. */
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

async function buildTargets(deps: SubmitDeps, account: OperatorAccount, input: TextUploadInput): Promise<PublishTarget[]> {
  if (input.platforms.some((p) => UNAVAILABLE_PLATFORMS.includes(p))) throw redditUnavailable();
  const publishable = ENDPOINT_PLATFORMS.text.filter((p) => deps.platforms.get(p)?.publisher && deps.platforms.get(p)!.descriptor.endpoints.includes('text'));
  const unsupported = input.platforms.filter((p) => !publishable.includes(p));
  if (unsupported.length) {
    throw invalidInput(`Text posts cannot be published to ${unsupported.join(', ')} yet. Supported: ${publishable.join(', ')}.`,
      { unsupported_platforms: unsupported }, 'platform_not_supported');
  }
  await requireProfile(deps.storage, account.id, input.profileUsername);

  const violations: Array<Record<string, unknown>> = [];
  const targets: PublishTarget[] = [];
  for (const platform of input.platforms) {
    const connection = await deps.storage.connectedAccounts.find(account.id, input.profileUsername, platform);
    if (!connection || connection.status === 'disconnected') {
      violations.push({ platform, type: 'not_connected', message: `No ${platform} account is connected to profile "${input.profileUsername}".` });
      continue;
    }
    const title = input.platformTitles[platform] ?? input.title;
    const max = deps.platforms.get(platform)!.descriptor.limits.textMaxChars;
    if (!title.trim()) {
      violations.push({ platform, type: 'empty_text', message: `The ${platform} post has no text: send title or ${platform}_title.` });
    } else if (max !== undefined && [...title].length > max) {
      violations.push({ platform, type: 'text_too_long', limit: max, length: [...title].length, message: `${platform} accepts at most ${max} characters; this text has ${[...title].length}.` });
    }
    const firstComment = input.firstComments?.[platform];
    targets.push({ platform, connectedAccountId: connection.id, title, settings: {}, ...(firstComment ? { firstComment } : {}) });
  }
  if (violations.length) {
    throw invalidInput(violations.map((v) => v.message).join(' '), { violations });
  }
  return targets;
}

/**
 * Accepts a text post for several platforms and hands it to the durable runner. A repeated
 * request id returns the earlier request instead of publishing again. Synchronous requests
 * wait up to `syncTimeoutMs`, then answer like asynchronous ones while the upload goes on.
 */
export async function submitTextUpload(deps: SubmitDeps, account: OperatorAccount, input: TextUploadInput): Promise<SubmitResult> {
  if (input.requestId) {
    const existing = await deps.storage.uploads.find(account.id, input.requestId);
    if (existing) return { upload: existing, duplicate: true, finished: existing.status === 'completed' };
  }
  const targets = await buildTargets(deps, account, input);
  const now = deps.clock.now();
  const upload: UploadRequest = {
    accountId: account.id,
    requestId: input.requestId ?? deps.ids.next('req'),
    profileUsername: input.profileUsername,
    mediaType: 'text',
    content: { title: input.title, ...(input.description ? { description: input.description } : {}) },
    targets,
    status: 'pending',
    async: input.async,
    ...(input.externalId ? { externalId: input.externalId } : {}),
    results: {},
    dispatches: {},
    warnings: input.warnings,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.storage.uploads.insert(upload);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    // A concurrent request with the same id won: answer with its upload.
    const existing = (await deps.storage.uploads.find(account.id, upload.requestId))!;
    return { upload: existing, duplicate: true, finished: existing.status === 'completed' };
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
  if (input.async) return { upload, duplicate: false, finished: false };

  const finished = await deps.runner.waitForCompletion(upload, input.syncTimeoutMs);
  const latest = await deps.storage.uploads.find(account.id, upload.requestId);
  if (!latest) throw new HeraldError('internal', `Upload ${upload.requestId} vanished while publishing.`);
  return { upload: latest, duplicate: false, finished: finished && latest.status === 'completed' };
}
