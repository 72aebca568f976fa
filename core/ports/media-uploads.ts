import type { StoredMedia } from './media';

/**
 * The bytes of staged media uploads while they arrive (docs/media-uploads.md): one file per
 * upload in the media store's staging directory, written at the offset the client resumes from,
 * fsync'd before a PUT answers (an interrupted one included), hashed as it is written.
 */
export interface StagedBytes {
  /** Bytes of the upload on disk (0 when there are none). */
  received(id: string): Promise<number>;
  /**
   * The exclusive right to write (or commit) the upload's bytes, across the host's processes;
   * null while someone else holds it. Call the returned function to give it back.
   */
  lock(id: string): Promise<(() => Promise<void>) | null>;
  /**
   * Writes `source` from `offset` (0 starts over: earlier bytes go) of a file of `total` bytes.
   * Throws StagedOverflowError at a chunk that would go past `limit` (what came before it stays), and
   * whatever `checkHead` throws (it is called once with the type sniffed from the first bytes,
   * before more than SNIFF_BYTES are written). A source that fails (the client's connection
   * dropped) ends the write: what arrived is kept and answered with `aborted`.
   */
  write(id: string, source: AsyncIterable<Uint8Array>, opts: {
    offset: number; limit: number; total: number; checkHead?: (sniffedType: string | undefined) => void;
  }): Promise<{ received: number; aborted: boolean; sha256?: string }>;
  /** SHA-256 (hex) of the bytes on disk: the one computed while they were written when this process wrote them all, else read once. */
  sha256(id: string): Promise<string>;
  /** The type sniffed from the upload's first bytes on disk (undefined: not a type Herald knows). */
  sniff(id: string): Promise<string | undefined>;
  /** Moves the whole file into the media store under its digest (renamed, not copied). */
  commit(id: string, meta: { contentType: string; sha256: string }): Promise<StoredMedia>;
  /** Removes the upload's bytes, if any. */
  remove(id: string): Promise<void>;
}

/** How many first bytes the type is sniffed from. */
export const SNIFF_BYTES = 4096;

export class StagedOverflowError extends Error {
  constructor(readonly received: number) {
    super('more bytes than content_length');
    this.name = 'StagedOverflowError';
  }
}

/** Herald's signed, expiring upload URLs: the signature binds the upload id and the expiry. */
export interface UploadUrls {
  url(id: string, expiresAt: Date): string;
  /** 'ok', or why not: a signature that is not ours for this id and expiry, or a passed expiry. */
  verify(id: string, exp: string | undefined, sig: string | undefined): 'ok' | 'forged' | 'expired';
}
