/**
 * Comments under the account's own published posts (spec "Comments"): list, create, delete,
 * moderate, and Instagram's private and public replies. Requests are checked against the
 * network's rules (its descriptor's `comments`, core/domain/comments.ts) before anything is sent;
 * every call goes through the connection session (tokens renewed, reauth marked).
 */
import { commentNetworks, commentPlatformsFor, type CommentNetworks, type CommentOperation, type CommentRules } from '../domain/comments';
import { HeraldError, PlatformError, conflict, invalidInput } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import type { Platform } from '../domain/platforms';
import type { ConnectedAccount } from '../domain/connected-account';
import type {
  CallContext, CommentAction, CommentRef, Comments, CommentsPage, LinkButton, PlatformComment, PlatformRegistry, PostRef,
} from '../ports/platform';
import type { Storage } from '../ports/storage';
import { withConnection, type ConnectionSessionDeps } from './connection-session';
import { requireProfile } from './profiles';

export type CommentsDeps = ConnectionSessionDeps & { storage: Pick<Storage, 'connectedAccounts' | 'profiles'> };

export interface CommentTarget {
  platform: Platform;
  /** The profile username. */
  user: string;
}

export interface ListCommentsInput extends CommentTarget { postId?: string; postUrl?: string; limit?: number; after?: string; commentId?: string }
export interface CreateCommentInput extends CommentTarget {
  message: string; commentId?: string; postId?: string; postUrl?: string; attachmentUrl?: string; attachmentShareUrl?: string;
}
export interface DeleteCommentInput extends CommentTarget { commentId: string; postId?: string }
export interface CommentActionRequest extends CommentTarget { action: CommentAction; commentId?: string; postId?: string; message?: string; banAuthor?: boolean }
export interface PrivateReplyInput extends CommentTarget { commentId: string; message: string; buttons?: LinkButton[] }

const networksOf = new WeakMap<PlatformRegistry, CommentNetworks>();

/** The comment rules the registry's networks declare (read once per registry). */
export function commentNetworksOf(platforms: PlatformRegistry): CommentNetworks {
  let networks = networksOf.get(platforms);
  if (!networks) {
    networks = commentNetworks(platforms.list().map((a) => a.descriptor));
    networksOf.set(platforms, networks);
  }
  return networks;
}

const notSupported = (networks: CommentNetworks, platform: string, what: string, operation: CommentOperation, action?: CommentAction) => {
  // The network itself is left out: an adapter that lacks the method cannot, whatever its rules say.
  const can = commentPlatformsFor(networks, operation, action).filter((p) => p !== platform);
  return invalidInput(`${platform} cannot ${what}. Networks that can: ${can.join(', ') || 'none'}.`, { platform, supported_platforms: can }, 'platform_not_supported');
};

/** The network's rules for `operation`; 400 platform_not_supported naming those that can. */
export function rulesOfOperation(networks: CommentNetworks, platform: Platform, operation: CommentOperation, what: string): CommentRules {
  const rules = networks.of(platform);
  if (!rules || !rules.operations.includes(operation)) throw notSupported(networks, platform, what, operation);
  return rules;
}

/** Exactly one of the targets is set (spec: "exactly one of comment_id / post_id / post_url"). */
function exactlyOne(fields: Record<string, string | undefined>, platform: string): void {
  const given = Object.entries(fields).filter(([, v]) => v !== undefined).map(([k]) => k);
  if (given.length === 1) return;
  const names = Object.keys(fields).join(' / ');
  throw invalidInput(given.length === 0
    ? `Send one of ${names} (the ${platform} comment to answer, or the post to comment on).`
    : `Send exactly one of ${names}; got ${given.join(' and ')}.`, { fields: Object.keys(fields) }, given.length ? 'multiple_targets' : 'missing_target');
}

type PostIds = Pick<Comments, 'postIdFromUrl' | 'postIdProblem' | 'unreadableUrl'>;

/** The post a request names: post_id as it is (checked where the network knows its ids), or the id a link names. */
export function postIdOf(platform: Platform, comments: PostIds | undefined, input: { postId?: string; postUrl?: string }): string {
  if (input.postId !== undefined) {
    const problem = comments?.postIdProblem?.(input.postId);
    if (problem) throw invalidInput(problem, { field: 'post_id' }, 'invalid_post_id');
    return input.postId;
  }
  const url = input.postUrl!;
  const id = comments?.postIdFromUrl?.(url);
  if (id) return id;
  throw invalidInput(comments?.unreadableUrl?.(url) ?? `The ${platform} post_url "${url}" cannot be read; send post_id.`, { field: 'post_url' }, 'invalid_post_url');
}

/** Checks a request against the network's rules; throws 400 with what to fix. Pure: no calls. */
export function validateCommentRequest(networks: CommentNetworks, operation: CommentOperation, input: Record<string, unknown> & CommentTarget): CommentRules {
  const { platform } = input;
  const rulesFor = (op: CommentOperation, what: string) => rulesOfOperation(networks, platform, op, what);
  const has = (k: string) => input[k] !== undefined && input[k] !== '';
  switch (operation) {
    case 'list': {
      const rules = rulesFor('list', 'list comments');
      if (has('postId') === has('postUrl')) {
        throw invalidInput(has('postId') ? 'Send post_id or post_url, not both.' : 'post_id or post_url is required.', { fields: ['post_id', 'post_url'] },
          has('postId') ? 'multiple_targets' : 'missing_target');
      }
      if (has('commentId') && !rules.listReplies) {
        const can = networks.platforms.filter((p) => networks.of(p)!.listReplies);
        throw invalidInput(`${platform} cannot list the replies under a comment (comment_id). Networks that can: ${can.join(', ')}.`,
          { platform, supported_platforms: can }, 'platform_not_supported');
      }
      if (has('commentId') && !has('postId')) throw invalidInput(`${platform}: post_id is required with comment_id.`, { field: 'post_id' });
      return rules;
    }
    case 'create': {
      const rules = rulesFor('create', 'create comments');
      if (rules.create === 'reply_only') {
        if (!has('commentId')) throw invalidInput(`${platform} comments are created as replies: comment_id is required.`, { field: 'comment_id' });
        exactlyOne({ comment_id: input.commentId as string | undefined, post_id: input.postId as string | undefined, post_url: input.postUrl as string | undefined }, platform);
      } else if (rules.create === 'post_required') {
        if (!has('postId')) throw invalidInput(`${platform}: post_id is always required (comment_id makes the comment a reply).`, { field: 'post_id' });
        if (has('postUrl')) throw invalidInput(`${platform}: send post_id, not post_url.`, { field: 'post_url' }, 'multiple_targets');
      } else {
        exactlyOne({ comment_id: input.commentId as string | undefined, post_id: input.postId as string | undefined, post_url: input.postUrl as string | undefined }, platform);
      }
      if (!rules.attachments && (has('attachmentUrl') || has('attachmentShareUrl'))) {
        const can = networks.platforms.filter((p) => networks.of(p)!.attachments);
        throw invalidInput(`attachment_url and attachment_share_url are taken by ${can.join(', ') || 'no network'} only.`, { field: has('attachmentUrl') ? 'attachment_url' : 'attachment_share_url' });
      }
      if (has('attachmentUrl') && has('attachmentShareUrl')) throw invalidInput('Send attachment_url or attachment_share_url, not both.', { field: 'attachment_url' });
      return rules;
    }
    case 'delete': {
      const rules = rulesFor('delete', 'delete comments');
      if (!has('commentId')) throw invalidInput('comment_id is required.', { field: 'comment_id' });
      if (rules.deleteNeedsPost && !has('postId')) throw invalidInput(`${platform}: post_id (the post URN) is required to delete a comment.`, { field: 'post_id' });
      return rules;
    }
    case 'action': {
      const action = input.action as CommentAction;
      // A network with comments but no moderation (LinkedIn, X, Bluesky) names those that can do this action.
      const own = networks.of(platform);
      const rules = own && !own.operations.includes('action') ? own : rulesFor('action', 'moderate comments');
      if (!rules.actions.includes(action)) {
        const can = commentPlatformsFor(networks, 'action', action);
        if (can.length === 0) throw invalidInput(`Unknown action "${action}".`, { field: 'action' });
        const has = rules.actions.length ? `(its actions: ${rules.actions.join(', ')})` : '(it has no comment actions)';
        throw invalidInput(`${platform} has no "${action}" action ${has}. Networks that can ${action}: ${can.join(', ')}.`,
          { platform, action, supported_platforms: can, supported_actions: rules.actions }, 'platform_not_supported');
      }
      const onPost = rules.postActions?.includes(action);
      if (!onPost && !has('commentId')) throw invalidInput(`${platform} ${action}: comment_id is required.`, { field: 'comment_id' });
      if (rules.actionsNeedingPost.includes(action) && !has('postId')) throw invalidInput(`${platform} ${action}: post_id is required.`, { field: 'post_id' });
      if (action === 'edit' && !has('message')) throw invalidInput(`${platform} edit: message (the new text) is required.`, { field: 'message' });
      if (input.banAuthor === true && !rules.banAuthorOn?.includes(action)) {
        const takers = networks.platforms.flatMap((p) => (networks.of(p)!.banAuthorOn ?? []).map((a) => `${p} ${a}`));
        throw invalidInput(`ban_author goes with ${takers.join(', ') || 'no action'} only.`, { field: 'ban_author' });
      }
      return rules;
    }
    case 'reply':
    case 'public_reply': {
      const rules = rulesFor(operation, operation === 'reply' ? 'reply in private to comments' : 'reply in public to comments');
      if (!has('commentId')) throw invalidInput('comment_id is required.', { field: 'comment_id' });
      return rules;
    }
  }
}

/**
 * The profile's live connection to `platform`, with the capability the network's comments need.
 * The connection first: one read on the hot path (none within the connection cache's TTL); the
 * profile is read only to tell an unknown profile (404) from one without the network (400).
 */
async function connectionFor(deps: CommentsDeps, account: OperatorAccount, target: CommentTarget, rules: CommentRules): Promise<ConnectedAccount> {
  const connection = await deps.storage.connectedAccounts.find(account.id, target.user, target.platform);
  if (!connection || connection.status === 'disconnected') {
    await requireProfile(deps.storage, account.id, target.user);
    throw invalidInput(`No ${target.platform} account is connected to profile "${target.user}".`, { platform: target.platform, type: 'not_connected' }, 'not_connected');
  }
  if (connection.status === 'reauth_required') {
    throw conflict(`The ${target.platform} account's authorization expired: reconnect it.`, 'reauth_required', { reauth_required: true, platform: target.platform });
  }
  if (rules.capability && !(connection.capabilities ?? []).includes(rules.capability)) {
    throw invalidInput(`This ${target.platform} connection lacks the "${rules.capability}" capability: reconnect the account to grant it.`,
      { platform: target.platform, capability: rules.capability }, 'tiktok_reconnect_required');
  }
  return connection;
}

/** Refusals the caller owns: not the owner of the post, or a missing permission (403). */
const FORBIDDEN_CODES: Record<string, 'not_owner' | 'permission_denied'> = { not_owner: 'not_owner', not_authorized_for_resource: 'not_owner', permission_denied: 'permission_denied', permission: 'permission_denied', missing_scope: 'permission_denied' };

async function run<T>(deps: CommentsDeps, connection: ConnectedAccount, call: (ctx: CallContext, comments: Comments) => Promise<T>): Promise<T> {
  const comments = deps.platforms.with(connection.platform, 'comments')?.comments;
  if (!comments) throw notSupported(commentNetworksOf(deps.platforms), connection.platform, 'do this with comments', 'list');
  try {
    return await withConnection(deps, connection, (ctx) => call(ctx, comments));
  } catch (err) {
    if (err instanceof PlatformError && err.failure.kind === 'rejected' && err.failure.code && FORBIDDEN_CODES[err.failure.code]) {
      throw new HeraldError('forbidden', `${err.platform}: ${err.message}`, FORBIDDEN_CODES[err.failure.code], { platform: err.platform });
    }
    throw err;
  }
}

const missingMethod = (deps: CommentsDeps, platform: Platform, what: string, operation: CommentOperation) => notSupported(commentNetworksOf(deps.platforms), platform, what, operation);

export interface CommentView extends Record<string, unknown> { id: string; text: string }

/** The spec's Comment: id, text, timestamp, user{id, username}, and what the network adds. */
export function commentView(c: PlatformComment): CommentView {
  return {
    id: c.ref.id,
    text: c.text,
    timestamp: c.createdAt ?? null,
    user: { id: c.authorId ?? null, username: c.authorName ?? null },
    ...(c.authorName !== undefined ? { username: c.authorName } : {}),
    ...(c.parentId !== undefined ? { parent_id: c.parentId } : {}),
    ...(c.hidden !== undefined ? { hidden: c.hidden } : {}),
    ...(c.isOwner !== undefined ? { is_owner: c.isOwner } : {}),
    ...(c.likeCount !== undefined ? { like_count: c.likeCount } : {}),
    ...(c.replyCount !== undefined ? { reply_count: c.replyCount } : {}),
    ...c.extra,
  };
}

export async function listComments(deps: CommentsDeps, account: OperatorAccount, input: ListCommentsInput): Promise<{ page: CommentsPage; comments: CommentView[] }> {
  const rules = validateCommentRequest(commentNetworksOf(deps.platforms), 'list', { ...input });
  const connection = await connectionFor(deps, account, input, rules);
  const page = await run(deps, connection, (ctx, comments) => {
    if (!comments.list) throw missingMethod(deps, input.platform, 'list comments', 'list');
    const post: PostRef = { id: postIdOf(input.platform, comments, input) };
    return comments.list(ctx, post, {
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...(input.after !== undefined ? { cursor: input.after } : {}),
      ...(input.commentId !== undefined ? { parent: { id: input.commentId, post } } : {}),
    });
  });
  return { page, comments: page.items.map(commentView) };
}

export async function createComment(deps: CommentsDeps, account: OperatorAccount, input: CreateCommentInput): Promise<CommentRef> {
  const rules = validateCommentRequest(commentNetworksOf(deps.platforms), 'create', { ...input });
  const connection = await connectionFor(deps, account, input, rules);
  return run(deps, connection, async (ctx, comments) => {
    const hasPost = input.postId !== undefined || input.postUrl !== undefined;
    const post: PostRef = { id: hasPost ? postIdOf(input.platform, comments, input) : '' };
    const created = await comments.create(ctx, {
      post, text: input.message,
      ...(input.commentId !== undefined ? { replyTo: { id: input.commentId, post } } : {}),
      ...(input.attachmentUrl !== undefined ? { attachmentUrl: input.attachmentUrl } : {}),
      ...(input.attachmentShareUrl !== undefined ? { attachmentShareUrl: input.attachmentShareUrl } : {}),
    });
    if (!created.comment) throw new HeraldError('platform_rejected', `${input.platform} took no comment: ${(created.warnings ?? []).join(' ')}`, 'platform_rejected');
    return created.comment;
  });
}

export async function deleteComment(deps: CommentsDeps, account: OperatorAccount, input: DeleteCommentInput): Promise<void> {
  const rules = validateCommentRequest(commentNetworksOf(deps.platforms), 'delete', { ...input });
  const connection = await connectionFor(deps, account, input, rules);
  await run(deps, connection, (ctx, comments) => {
    if (!comments.remove) throw missingMethod(deps, input.platform, 'delete comments', 'delete');
    return comments.remove(ctx, { id: input.commentId, post: { id: input.postId ?? '' } });
  });
}

export async function actOnComment(deps: CommentsDeps, account: OperatorAccount, input: CommentActionRequest): Promise<void> {
  const rules = validateCommentRequest(commentNetworksOf(deps.platforms), 'action', { ...input });
  const connection = await connectionFor(deps, account, input, rules);
  await run(deps, connection, (ctx, comments) => {
    if (!comments.act) throw missingMethod(deps, input.platform, 'moderate comments', 'action');
    const post = input.postId !== undefined ? { id: input.postId } : undefined;
    return comments.act(ctx, {
      action: input.action,
      ...(input.commentId !== undefined ? { comment: { id: input.commentId, post: post ?? { id: '' } } } : {}),
      ...(post ? { post } : {}),
      ...(input.message !== undefined ? { message: input.message } : {}),
      ...(input.banAuthor !== undefined ? { banAuthor: input.banAuthor } : {}),
    });
  });
}

export async function privateReply(deps: CommentsDeps, account: OperatorAccount, input: PrivateReplyInput): Promise<{ messageId: string; recipientId?: string }> {
  const rules = validateCommentRequest(commentNetworksOf(deps.platforms), 'reply', { ...input });
  const connection = await connectionFor(deps, account, input, rules);
  return run(deps, connection, (ctx, comments) => {
    if (!comments.privateReply) throw missingMethod(deps, input.platform, 'reply in private to comments', 'reply');
    return comments.privateReply(ctx, { comment: { id: input.commentId, post: { id: '' } }, text: input.message, ...(input.buttons ? { buttons: input.buttons } : {}) });
  });
}

export async function publicReply(deps: CommentsDeps, account: OperatorAccount, input: PrivateReplyInput): Promise<CommentRef> {
  const rules = validateCommentRequest(commentNetworksOf(deps.platforms), 'public_reply', { ...input });
  const connection = await connectionFor(deps, account, input, rules);
  return run(deps, connection, async (ctx, comments) => {
    const post: PostRef = { id: '' };
    const created = await comments.create(ctx, { post, text: input.message, replyTo: { id: input.commentId, post } });
    if (!created.comment) throw new HeraldError('platform_rejected', `${input.platform} took no reply: ${(created.warnings ?? []).join(' ')}`, 'platform_rejected');
    return created.comment;
  });
}
