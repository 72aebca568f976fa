/**
 * The media library: an account's published media, newest first, in the spec's media item terms.
 * Each network says how many items one page may hold and whether it pages with cursors; the core
 * clamps the caller's limit to that and refuses a cursor where the network has none.
 */
import type { CallContext } from './context';
import type { Page } from './refs';

export type LibraryMediaType = 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM' | 'TEXT';

/** One carousel item (Instagram only), in order. */
export interface LibraryMediaChild {
  id: string;
  mediaType: Exclude<LibraryMediaType, 'CAROUSEL_ALBUM' | 'TEXT'>;
  mediaUrl?: string;
  /** Videos only. */
  thumbnailUrl?: string;
  timestamp?: string;
}

export interface LibraryMedia {
  /** The network's post id, as the other endpoints take it (comments, edit, analytics). */
  id: string;
  caption?: string;
  mediaType: LibraryMediaType;
  /** A temporary direct URL, only on networks that give one (never TikTok or YouTube). */
  mediaUrl?: string;
  permalink?: string;
  /** ISO-8601. */
  timestamp?: string;
  thumbnailUrl?: string;
  children?: LibraryMediaChild[];
}

export interface MediaListRequest {
  /** Already clamped to 1..maxLimit. */
  limit: number;
  /** A cursor this adapter returned (only when `cursors` is true). */
  cursor?: string;
  /**
   * The page the list reads (the descriptor's `mediaLibrary.pageParam`, else the profile's pin): LinkedIn an organization (URN or
   * numeric id; the first administered one when absent), Facebook a page id.
   */
  page?: string;
}

/** The account's published media, newest first. */
export interface MediaLibrary {
  /** The most items one page may hold on this network (the spec's per-network cap). */
  readonly maxLimit: number;
  /** Whether the network pages with an opaque cursor (LinkedIn does not). */
  readonly cursors: boolean;
  list(ctx: CallContext, request: MediaListRequest): Promise<Page<LibraryMedia>>;
}
