/**
 * Capabilities the next issues fill (media library, post editing, lookups; analytics is in analytics.ts). Declared
 * now so the port's shape is settled; no adapter implements them yet.
 */
import type { CallContext } from './context';
import type { Page, PageRequest, PostRef } from './refs';

export interface LibraryMedia {
  post: PostRef;
  kind: 'video' | 'photo' | 'text' | 'carousel';
  caption?: string;
  mediaUrl?: string;
  thumbnailUrl?: string;
  publishedAt?: string;
}

/** The account's published media, newest first. */
export interface MediaLibrary {
  list(ctx: CallContext, page?: PageRequest): Promise<Page<LibraryMedia>>;
}

/** Changes to a published post. */
export interface PostEditor {
  edit?(ctx: CallContext, post: PostRef, changes: { text?: string; title?: string; settings?: Record<string, unknown> }): Promise<PostRef>;
  unpublish?(ctx: CallContext, post: PostRef): Promise<void>;
  repost?(ctx: CallContext, post: PostRef): Promise<PostRef>;
  save?(ctx: CallContext, post: PostRef): Promise<void>;
}

/** Read-only lookups a client needs to fill a network's fields (pages, boards, playlists, locations). */
export interface Lookups {
  list(ctx: CallContext, kind: string, page?: PageRequest): Promise<Page<{ id: string; name: string; extra?: Record<string, unknown> }>>;
}
