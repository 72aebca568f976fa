/**
 * Changes to a post the account already published (spec "Published-post operations"). A network
 * implements the operations its API has; the core answers `platform_not_supported` (naming the
 * networks that can) for the others.
 */
import type { CallContext } from './context';
import type { PostRef } from './refs';

/** What an edit changes; what is left out stays as it is on the network. */
export interface PostChanges {
  /** The new post text (Facebook message, X text, LinkedIn commentary, a message's text or caption). */
  text?: string;
  /** The new title where the network has one apart from the text (YouTube, articles, forum posts). */
  title?: string;
  /**
   * The network's own edit fields, in the request's names without the network prefix where the
   * spec has one (`is_pinned`, `scheduled_publish_time`, `visibility`, `disable_reshare`,
   * `description`, `tags`, `privacyStatus`, `categoryId`, `publishAt`, `gbp_*`, …).
   */
  settings?: Record<string, unknown>;
}

/** The post after an edit. */
export interface EditedPost extends PostRef {
  /** The request fields the network changed (Facebook's `updated[]`); absent when not told. */
  updated?: string[];
  /** Networks where an edit is a new post (X): the id it replaced and every id of its edit chain, oldest first. */
  previousId?: string;
  editHistory?: string[];
}

/** Where a post is saved (Pinterest: a board, optionally a section). */
export interface SaveTarget {
  boardId: string;
  sectionId?: string;
}

/** An image sent to a published post (YouTube thumbnails.set). */
export interface PostImage {
  contentType: string;
  size: number;
  bytes(): AsyncIterable<Uint8Array>;
}

/** Changes to a published post. Each method throws PlatformError with the network's refusal. */
export interface PostEditor {
  edit?(ctx: CallContext, post: PostRef, changes: PostChanges): Promise<EditedPost>;
  /** Deletes the post from the network. */
  unpublish?(ctx: CallContext, post: PostRef): Promise<void>;
  /** Shares the post again as the account (LinkedIn reshare, X repost); returns the new post. */
  repost?(ctx: CallContext, post: PostRef): Promise<PostRef>;
  /** Saves the post to a collection of the account (Pinterest save to a board); returns the saved copy. */
  save?(ctx: CallContext, post: PostRef, target: SaveTarget): Promise<PostRef>;
  /** Sets a video's thumbnail (YouTube). */
  setThumbnail?(ctx: CallContext, post: PostRef, image: PostImage): Promise<{ url?: string }>;
}
