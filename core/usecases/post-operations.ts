/**
 * Published-post operations (spec "Published-post operations"): edit, a YouTube thumbnail and the
 * simple operations of POST_OPERATIONS (unpublish, repost, save, …), each made as the profile's
 * connected account through its connection session.
 * An operation on a post one of the operator's uploads published is stored with that upload, so
 * its status and history show it (core/domain/post-operations.ts).
 */
import { hasStatus } from '../domain/error-codes';
import { HeraldError, invalidInput, PlatformError, redditUnavailable } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { POST_OPERATION_RESULT_FIELDS, POST_OPERATIONS, type PostOperation, type PostOperationAction, type PostOperationInput, type SimplePostOperation } from '../domain/post-operations';
import { UNAVAILABLE_PLATFORMS, type Platform } from '../domain/platforms';
import type { TargetResult, UploadRequest } from '../domain/upload';
import type { CallContext, EditedPost, PostChanges, PostEditor, PostImage, PostRef } from '../ports/platform';
import type { Storage } from '../ports/storage';
import type { IdGenerator } from '../ports/system';
import { withConnection, type ConnectionSessionDeps } from './connection-session';
import { requireProfile } from './profiles';

export type PostOperationDeps = ConnectionSessionDeps & {
  storage: Pick<Storage, 'connectedAccounts' | 'profiles' | 'uploads'>;
  ids: IdGenerator;
};

type Operation = keyof PostEditor;

const VERB: Record<Operation, string> = {
  edit: 'edit published posts', setThumbnail: 'set thumbnails',
  ...Object.fromEntries(Object.entries(POST_OPERATIONS).map(([k, spec]) => [k, spec.verb])) as Record<SimplePostOperation, string>,
};

/** Result fields that are Herald's own, not the network's reference to the post. */
const RESULT_FIELDS = new Set(['platform', 'success', 'post_id', 'url', 'error', 'error_code', 'warnings', 'first_comment_posted', 'finished_at',
  ...POST_OPERATION_RESULT_FIELDS]);

/** The networks whose editor has `operation`, for platform_not_supported messages. */
export function networksThatCan(deps: Pick<PostOperationDeps, 'platforms'>, operation: Operation): Platform[] {
  return deps.platforms.having('postEditor').filter((a) => typeof a.postEditor[operation] === 'function').map((a) => a.descriptor.id);
}

export interface PostTarget {
  platform: Platform;
  /** Profile username. */
  user: string;
  postId: string;
  /** What the network needs besides the id when the post was not published through Herald (Facebook page id). */
  extra?: Record<string, unknown>;
}

interface Prepared<K extends Operation> {
  editor: Required<Pick<PostEditor, K>>;
  post: PostRef;
  upload: UploadRequest | null;
  run<T>(call: (ctx: CallContext) => Promise<T>): Promise<T>;
}

/** The network's editor when it can do `operation`; 400 platform_not_supported naming the networks that can, 503 for reddit. */
export function requireOperation<K extends Operation>(deps: Pick<PostOperationDeps, 'platforms'>, platform: Platform, operation: K): Required<Pick<PostEditor, K>> {
  if (UNAVAILABLE_PLATFORMS.includes(platform)) throw redditUnavailable();
  const editor = deps.platforms.with(platform, 'postEditor')?.postEditor;
  if (!editor || typeof editor[operation] !== 'function') {
    const can = networksThatCan(deps, operation);
    throw invalidInput(`${platform} posts cannot be changed this way: the networks that can ${VERB[operation]} are ${can.join(', ')}.`,
      { platform, supported_platforms: can }, 'platform_not_supported');
  }
  return editor as Required<Pick<PostEditor, K>>;
}

async function prepare<K extends Operation>(deps: PostOperationDeps, account: OperatorAccount, target: PostTarget, operation: K): Promise<Prepared<K>> {
  const { platform } = target;
  const editor = requireOperation(deps, platform, operation);
  if (!target.postId) throw invalidInput('post_id is required: the id of the published post.', { violations: [{ field: 'post_id', message: 'required' }] });
  const profile = await requireProfile(deps.storage, account.id, target.user);
  const connection = await deps.storage.connectedAccounts.find(account.id, profile.username, platform);
  if (!connection || connection.status === 'disconnected') {
    throw invalidInput(`No ${platform} account is connected to profile "${profile.username}".`, { platform, type: 'not_connected' }, 'not_connected');
  }
  if (connection.status === 'reauth_required') {
    throw new HeraldError('conflict', `The ${platform} account's authorization expired: reconnect it first.`, 'reauth_required', { reauth_required: true, platform });
  }
  const upload = await deps.storage.uploads.findByPostId(account.id, platform, target.postId);
  const result = upload?.results[platform];
  const post = result ? postRefOfResult(result, target.postId, target.extra) : { id: target.postId, ...(target.extra ? { extra: target.extra } : {}) };
  const run = <T>(call: (ctx: CallContext) => Promise<T>) => withConnection(deps, connection, call).catch((err: unknown) => {
    throw refusal(err);
  });
  return { editor, post, upload, run };
}

/** The post as the adapter published it: the current id (after edits that renumber it), its URL and the adapter's extra fields. */
export function postRefOfResult(result: TargetResult, postId: string, given?: Record<string, unknown>): PostRef {
  const extra: Record<string, unknown> = { ...given };
  for (const [k, v] of Object.entries(result)) if (!RESULT_FIELDS.has(k) && v !== undefined) extra[k] = v;
  return { id: postId, ...(result.url ? { url: result.url } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
}

/**
 * A network's refusal of a post operation: a post that is not there (or not the account's own, which
 * networks answer the same way) is 404; a refusal of the account's rights (not the owner, the edit
 * window closed, a plan that cannot edit) is 403; the rest as for any synchronous call.
 */
const NOT_FOUND = new Set(['not_found', 'post_not_found', 'message_not_found']);
const FORBIDDEN = new Set(['not_owner', 'premium_required', 'edit_window_closed', 'edit_limit_reached', 'permission', 'permission_denied', 'forbidden', 'reshare_disabled']);
function refusal(err: unknown): unknown {
  if (!(err instanceof PlatformError) || (err.failure.kind !== 'rejected' && err.failure.kind !== 'invalid_content')) return err;
  const code = err.failure.code;
  if (code && NOT_FOUND.has(code)) return new HeraldError('not_found', `${err.platform}: ${err.message}`, 'post_not_found', { platform: err.platform });
  if (code && FORBIDDEN.has(code) && hasStatus(code, 403)) return new HeraldError('forbidden', `${err.platform}: ${err.message}`, code, { platform: err.platform });
  return err;
}

async function record(deps: PostOperationDeps, upload: UploadRequest | null, target: PostTarget, action: PostOperationAction,
  fields: Omit<PostOperation, 'id' | 'accountId' | 'requestId' | 'platform' | 'action' | 'postId' | 'at'> = {}): Promise<void> {
  if (!upload) return;
  await deps.storage.uploads.recordPostOperation({
    id: deps.ids.next('op'), accountId: upload.accountId, requestId: upload.requestId, platform: target.platform, action, postId: target.postId,
    ...fields, at: deps.clock.now(),
  }, upload);
}

export interface EditOutcome extends EditedPost {
  /** The upload that published the post, when Herald did. */
  requestId?: string;
}

/** `changes` must hold something: the route says which fields the platform takes (400 nothing_to_update otherwise). */
export async function editPost(deps: PostOperationDeps, account: OperatorAccount, target: PostTarget, changes: PostChanges): Promise<EditOutcome> {
  const { editor, post, upload, run } = await prepare(deps, account, target, 'edit');
  const edited = await run((ctx) => editor.edit(ctx, post, changes));
  await record(deps, upload, target, 'edit', {
    ...(edited.id !== target.postId ? { resultPostId: edited.id } : {}),
    ...(edited.url ? { url: edited.url } : {}),
    ...(edited.updated ? { updated: edited.updated } : {}),
  });
  return { ...edited, ...(upload ? { requestId: upload.requestId } : {}) };
}

export interface PostOperationOutcome {
  /** The post the network made (the repost, the saved copy), for operations that answer one. */
  post?: PostRef;
  /** The upload that published the post, when Herald did. */
  requestId?: string;
}

/** One of the simple operations (POST_OPERATIONS): the network's method with the entry's input, stored with the upload as the entry records it. */
export async function runPostOperation<K extends SimplePostOperation>(deps: PostOperationDeps, account: OperatorAccount, target: PostTarget,
  action: K, input: PostOperationInput<K>): Promise<PostOperationOutcome> {
  const { editor, post, upload, run } = await prepare(deps, account, target, action);
  const call = editor[action] as (ctx: CallContext, post: PostRef, input: PostOperationInput<K>) => Promise<PostRef | void>;
  const made = (await run((ctx) => call(ctx, post, input))) ?? undefined;
  const spec = POST_OPERATIONS[action] as { record(made: PostRef | undefined, input: PostOperationInput<K>): Partial<PostOperation> };
  await record(deps, upload, target, action, spec.record(made, input));
  return { ...(made ? { post: made } : {}), ...(upload ? { requestId: upload.requestId } : {}) };
}

/** unpublish under its use-case name. */
export const unpublishPost = (deps: PostOperationDeps, account: OperatorAccount, target: PostTarget): Promise<PostOperationOutcome> =>
  runPostOperation(deps, account, target, 'unpublish', undefined);

export async function setPostThumbnail(deps: PostOperationDeps, account: OperatorAccount, target: PostTarget, image: PostImage): Promise<{ url?: string; requestId?: string }> {
  const { editor, post, upload, run } = await prepare(deps, account, target, 'setThumbnail');
  const set = await run((ctx) => editor.setThumbnail(ctx, post, image));
  await record(deps, upload, target, 'thumbnail');
  return { ...set, ...(upload ? { requestId: upload.requestId } : {}) };
}
