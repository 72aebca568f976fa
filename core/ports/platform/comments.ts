import type { CallContext } from './context';
import type { CommentRef, Page, PageRequest, PostRef } from './refs';

export interface PlatformComment {
  ref: CommentRef;
  text: string;
  authorName?: string;
  authorId?: string;
  createdAt?: string;
  likeCount?: number;
  replyCount?: number;
  hidden?: boolean;
  /** The comment this one answers, when it is a reply. */
  parentId?: string;
  /** The account itself wrote it (Threads `is_owner`, TikTok's own comments). */
  isOwner?: boolean;
  /** Network-specific fields of the spec's Comment shown as they are (`source`, `moderation_status`, `pinned`, …). */
  extra?: Record<string, unknown>;
}

export interface CommentCreated {
  /** Absent when the network took nothing (a skipped first comment); `warnings` say why. */
  comment?: CommentRef;
  warnings?: string[];
}

/** One page of comments; `partial` when the network showed only some of them (Threads without read-replies permission). */
export interface CommentsPage extends Page<PlatformComment> {
  partial?: boolean;
  warnings?: string[];
}

/** The verbs of `POST /comments/action`, each with its inverse (spec "Comments"). */
export const COMMENT_ACTIONS = [
  'hide', 'unhide', 'like', 'unlike', 'pin', 'unpin', 'edit', 'hold', 'approve', 'ignore', 'enable_comments', 'disable_comments',
] as const;
export type CommentAction = (typeof COMMENT_ACTIONS)[number];

export interface CommentActionInput {
  action: CommentAction;
  /** Absent for actions on the post itself (Instagram enable_comments / disable_comments). */
  comment?: CommentRef;
  /** The post the comment is under, or the post acted on. */
  post?: PostRef;
  /** The new text (Facebook `edit`). */
  message?: string;
  /** YouTube `hide`: ban the author from the channel too. */
  banAuthor?: boolean;
}

/** A button of an Instagram private reply: opens `url`. */
export interface LinkButton {
  title: string;
  url: string;
}

/**
 * Comments under the account's own published posts. `create` also posts first comments (a reply
 * on X and Threads, top-level on YouTube). Which operations and actions a network offers, and
 * which fields each needs, is the network's descriptor (`comments`, core/domain/comments.ts); an
 * adapter implements the methods for what its network does.
 */
export interface Comments {
  create(ctx: CallContext, input: {
    post: PostRef; text: string; replyTo?: CommentRef;
    /** Facebook: an image URL, or a GIF share URL, attached to the comment. */
    attachmentUrl?: string; attachmentShareUrl?: string;
  }): Promise<CommentCreated>;
  /** Comments under `post`, newest or in the network's order; `parent`: the replies under that comment (TikTok). */
  list?(ctx: CallContext, post: PostRef, page?: PageRequest & { parent?: CommentRef }): Promise<CommentsPage>;
  remove?(ctx: CallContext, comment: CommentRef): Promise<void>;
  act?(ctx: CallContext, input: CommentActionInput): Promise<void>;
  /** A private message to a comment's author (Instagram, within 24 hours of the comment). */
  privateReply?(ctx: CallContext, input: { comment: CommentRef; text: string; buttons?: LinkButton[] }): Promise<{ messageId: string; recipientId?: string }>;
  /** The post id a link to a post of this network names; undefined when the link cannot be read (share and short links). */
  postIdFromUrl?(url: string): string | undefined;
  /** Why `id` is no post id of this network (400 invalid_post_id); undefined when it is one. */
  postIdProblem?(id: string): string | undefined;
  /** What to tell the caller when postIdFromUrl cannot read `url` (default: send post_id). */
  unreadableUrl?(url: string): string;
}
