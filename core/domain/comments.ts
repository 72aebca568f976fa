/**
 * What a network offers on the comment endpoints (spec "Comments" and its table). Each network
 * declares its rules in its descriptor (adapters/platforms/<network>/descriptor.ts); the use case
 * validates requests against them.
 */
import type { CommentAction } from '../ports/platform/comments';
import { PLATFORMS, type Platform } from './platforms';

export type CommentOperation = 'list' | 'create' | 'delete' | 'action' | 'reply' | 'public_reply';

export interface CommentRules {
  operations: readonly CommentOperation[];
  /** `reply_only`: create needs comment_id (Instagram); `post_required`: post_id always, comment_id makes it a reply (TikTok). */
  create: 'any_target' | 'reply_only' | 'post_required';
  /** Delete needs post_id (LinkedIn). */
  deleteNeedsPost?: boolean;
  actions: readonly CommentAction[];
  /** Actions that need post_id besides (or instead of) comment_id. */
  actionsNeedingPost: readonly CommentAction[];
  /** Actions on the post itself: no comment_id. */
  postActions?: readonly CommentAction[];
  /** `comment_id` on a listing returns the replies under it. */
  listReplies?: boolean;
  /** The connection needs this capability (TikTok `comments`). */
  capability?: string;
  /** Create takes `attachment_url` or `attachment_share_url` (Facebook). */
  attachments?: boolean;
  /** Actions that take `ban_author` (YouTube hide). */
  banAuthorOn?: readonly CommentAction[];
  /** The answer of a created comment: `id` and a message (default), or `{ platform, result: { comment_id } }` (TikTok). */
  createdAnswer?: 'id' | 'result';
  /** What the API reference says of an operation on this network beyond the rules above ("its own comments only"). */
  notes?: Partial<Record<CommentOperation, string>>;
}

/** The operations most networks with moderation offer: all but Instagram's replies. */
export const ALL_BUT_REPLY: readonly CommentOperation[] = ['list', 'create', 'delete', 'action'];

/**
 * The comment rules of every network that declares them (its descriptor's `comments`), in the
 * API's platform order: the use case checks requests against them and names, when a network
 * cannot do something, the networks that can.
 */
export interface CommentNetworks {
  of(platform: Platform): CommentRules | undefined;
  readonly platforms: readonly Platform[];
}

export function commentNetworks(descriptors: Iterable<{ id: Platform; comments?: CommentRules }>): CommentNetworks {
  const byId = new Map<Platform, CommentRules>();
  for (const d of descriptors) if (d.comments) byId.set(d.id, d.comments);
  const platforms = PLATFORMS.filter((p) => byId.has(p));
  return { of: (platform) => byId.get(platform), platforms };
}

/** The networks that can do `operation` (and `action`, when given), in the API's platform order. */
export function commentPlatformsFor(networks: CommentNetworks, operation: CommentOperation, action?: CommentAction): Platform[] {
  return networks.platforms.filter((p) => {
    const rules = networks.of(p)!;
    return rules.operations.includes(operation) && (action === undefined || rules.actions.includes(action));
  });
}

/** The inverse verb of each action (the spec: each action has its inverse; no booleans). */
export const INVERSE_ACTION: Partial<Record<CommentAction, CommentAction>> = {
  hide: 'unhide', unhide: 'hide', like: 'unlike', unlike: 'like', pin: 'unpin', unpin: 'pin',
  enable_comments: 'disable_comments', disable_comments: 'enable_comments', approve: 'ignore', ignore: 'approve',
};
