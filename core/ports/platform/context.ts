import type { MediaRef } from '../../domain/media';

/**
 * Credentials as a flat JSON object of strings; the core seals them before storing. Tokens that
 * expire carry `expires_at` (ISO-8601): the connection session refreshes before that and once on
 * auth_expired.
 */
export type PlatformCredentials = Record<string, string>;

/** Every call made as a connected account gets one (see core/usecases/connection-session.ts). */
export interface CallContext {
  credentials: PlatformCredentials;
  /** Cancellation from the caller (an activity, an HTTP request). */
  signal?: AbortSignal;
}

/** Formats a stored file can be converted to for a network that takes no other (Instagram: JPEG only). */
export type RenditionType = 'image/jpeg';

/** How adapters reach the bytes: streamed for push uploads, or a public URL for pull-based networks. */
export interface MediaAccess {
  /** The bytes, or a byte range (inclusive start, exclusive end) for chunked uploads. */
  read(id: string, range?: { start: number; end: number }): AsyncIterable<Uint8Array>;
  /** A signed, expiring URL the network can fetch (Instagram, Threads, Pinterest, TikTok PULL_FROM_URL). */
  publicUrl(id: string): string;
  /**
   * The file converted to `as`, stored as media of its own (content-addressed, converted once and
   * reused): publish its `id` where the network refuses the original's format. A file already in
   * that format is its own rendition.
   */
  rendition(id: string, as: RenditionType): Promise<MediaRef>;
}

export interface PublishContext extends CallContext {
  /** Stable per target across retries; sent where the network accepts an idempotency key. */
  idempotencyKey: string;
  media: MediaAccess;
}
