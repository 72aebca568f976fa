import type { MediaInfo, MediaRef } from '../domain/media';

export type { MediaInfo };

/**
 * Media behind ports: uploaded files are streamed into a content-addressed store (never held
 * whole in memory) and probed once for what the networks' limits need.
 */
export interface StoredMedia {
  /** Content address: the SHA-256 of the bytes, hex. */
  id: string;
  size: number;
  contentType: string;
}

export interface MediaStore {
  /**
   * Streams `source` into the store. Throws MediaTooLargeError past `maxBytes` (nothing is kept).
   * Storing the same bytes twice yields the same id and keeps one copy.
   */
  put(source: AsyncIterable<Uint8Array>, meta: { contentType: string; maxBytes?: number }): Promise<StoredMedia>;
  stat(id: string): Promise<StoredMedia | null>;
  /** The bytes, streamed; optionally a byte range (inclusive start, exclusive end) for chunked uploads. */
  read(id: string, range?: { start: number; end: number }): AsyncIterable<Uint8Array>;
  delete(id: string): Promise<void>;
}

export class MediaTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
    this.name = 'MediaTooLargeError';
  }
}

export interface MediaProbe {
  probe(id: string): Promise<MediaInfo>;
}

/**
 * Fetches a media URL the caller sent into the media store and describes it (type, size, probe).
 * Throws a HeraldError (`invalid_input` with `media_url_*`, `media_type_unsupported`,
 * `media_too_large`) when the URL is refused or the download fails.
 */
export interface MediaFetcher {
  /** `expect`: `video` for the video field, `media` for photos (images, or videos in mixed carousels). */
  fetch(url: string, field: string, expect: 'video' | 'media'): Promise<MediaRef>;
  /**
   * Cheap checks before a URL is accepted for a background fetch: a well-formed http(s) URL whose
   * host resolves to an address Herald may fetch from. Throws like `fetch`.
   */
  vet(url: string, field: string): Promise<void>;
}
