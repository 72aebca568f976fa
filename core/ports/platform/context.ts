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

/** How adapters reach the bytes: streamed for push uploads, or a public URL for pull-based networks. */
export interface MediaAccess {
  /** The bytes, or a byte range (inclusive start, exclusive end) for chunked uploads. */
  read(id: string, range?: { start: number; end: number }): AsyncIterable<Uint8Array>;
  /** A signed, expiring URL the network can fetch (Instagram, Threads, Pinterest, TikTok PULL_FROM_URL). */
  publicUrl(id: string): string;
}

export interface PublishContext extends CallContext {
  /** Stable per target across retries; sent where the network accepts an idempotency key. */
  idempotencyKey: string;
  media: MediaAccess;
}
