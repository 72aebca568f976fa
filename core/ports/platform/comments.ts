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
  parentId?: string;
}

export interface CommentCreated {
  /** Absent when the network took nothing (a skipped first comment); `warnings` say why. */
  comment?: CommentRef;
  warnings?: string[];
}

/**
 * Comments under published posts. `create` also posts first comments (a reply on X and Threads,
 * top-level on YouTube). The other methods are filled by the engagement issue.
 */
export interface Comments {
  create(ctx: CallContext, input: { post: PostRef; text: string; replyTo?: CommentRef }): Promise<CommentCreated>;
  list?(ctx: CallContext, post: PostRef, page?: PageRequest): Promise<Page<PlatformComment>>;
  remove?(ctx: CallContext, comment: CommentRef): Promise<void>;
  moderate?(ctx: CallContext, comment: CommentRef, action: 'hide' | 'unhide'): Promise<void>;
}
