/**
 * Capabilities the next issues fill (media library, analytics, lookups). Declared
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

export type MetricValues = Record<string, number | null>;

/** Profile and per-post metrics, in the network's own metric names mapped to the spec's. */
export interface Analytics {
  profile(ctx: CallContext, input: { since: Date; until: Date; metrics?: readonly string[] }): Promise<MetricValues>;
  post(ctx: CallContext, post: PostRef, input?: { metrics?: readonly string[] }): Promise<MetricValues>;
}

/** Changes to a published post: core/ports/platform/post-editor.ts. */
export type { PostEditor } from './post-editor';

/** Read-only lookups a client needs to fill a network's fields (pages, boards, playlists, locations). */
export interface Lookups {
  list(ctx: CallContext, kind: string, page?: PageRequest): Promise<Page<{ id: string; name: string; extra?: Record<string, unknown> }>>;
}
