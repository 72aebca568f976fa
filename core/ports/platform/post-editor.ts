/**
 * Changes to a post the account already published (spec "Published-post operations"). A network
 * implements the operations its API has; the core answers `platform_not_supported` (naming the
 * networks that can) for the others. Besides edit and setThumbnail, each method is an entry of
 * POST_OPERATIONS (core/domain/post-operations.ts): a new entry is a new method here.
 */
import type { PostOperationInput, PostOperationReturns, SimplePostOperation } from '../../domain/post-operations';
import type { CallContext } from './context';
import type { PostRef } from './refs';

export type { SaveTarget } from '../../domain/post-operations';

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

/** An image sent to a published post (YouTube thumbnails.set). */
export interface PostImage {
  contentType: string;
  size: number;
  bytes(): AsyncIterable<Uint8Array>;
}

/**
 * One method per entry of POST_OPERATIONS (its description says what it does), called with the
 * entry's input; an entry that `returns: 'post'` answers the post it made (the repost, the saved copy).
 */
export type PostOperations = {
  [K in SimplePostOperation]?: (ctx: CallContext, post: PostRef, ...input: InputArgument<PostOperationInput<K>>) => Promise<PostOperationReturns<K> extends 'post' ? PostRef : void>;
};

/** An operation without input is called with the post alone. */
type InputArgument<I> = [I] extends [undefined] ? [input?: undefined] : [input: I];

/** Changes to a published post. Each method throws PlatformError with the network's refusal. */
export interface PostEditor extends PostOperations {
  edit?(ctx: CallContext, post: PostRef, changes: PostChanges): Promise<EditedPost>;
  /** Sets a video's thumbnail (YouTube). */
  setThumbnail?(ctx: CallContext, post: PostRef, image: PostImage): Promise<{ url?: string }>;
}
