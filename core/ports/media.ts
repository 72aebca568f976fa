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
  /**
   * Takes a whole file from local disk (an upload's temporary file, a job's output), moved in
   * rather than copied where it can be, and the file is gone afterwards. `sha256` (hex) is the
   * digest of its bytes when the caller computed it while writing them (the file is then not read
   * again); without it the file is read once to hash it. Same result as `put` of its bytes.
   */
  putFile(file: string, meta: { contentType: string; maxBytes?: number; sha256?: string }): Promise<StoredMedia>;
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

/** What a media-processing job's run needs: the parsed command, its inputs in the store, its limits. */
export interface MediaProcessRequest {
  jobId: string;
  /** ffmpeg arguments with whole-argument placeholders (core/domain/ffmpeg-command.ts). */
  command: { args: string[]; inputCount: number };
  /** Media store ids, `{input0}` first. */
  inputIds: string[];
  outputExtension: string;
  outputContentType: string;
  /** Wall-clock limit of one run. */
  timeLimitMs: number;
  /** Largest output; the run is stopped past it. */
  maxOutputBytes: number;
}

/** Why a run ended without an output. `cancelled`: the caller's signal stopped it. */
export type MediaProcessFailureKind = 'failed' | 'time_limit' | 'too_large' | 'cancelled';

export class MediaProcessError extends Error {
  constructor(readonly kind: MediaProcessFailureKind, message: string) {
    super(message);
    this.name = 'MediaProcessError';
  }
}

/**
 * Runs ffmpeg for media-processing jobs (behind this port: fluent-ffmpeg is archived upstream, the
 * adapter may spawn ffmpeg itself). Each run happens in a scratch directory of its own, without a
 * shell; the output goes into the media store.
 */
export interface MediaProcessor {
  /** Duration and container of a stored input, probed without following any URL or other file; null where unknown. */
  probeInput(id: string): Promise<{ durationSeconds: number | null; format: string | null }>;
  /**
   * Runs the command. `onProgress` gets the input seconds processed so far, as ffmpeg reports them;
   * `onPhase` is told when the process was spawned and when it exited (where a run's time goes).
   * Throws MediaProcessError when the run fails, passes a limit or `signal` aborts it (the process is killed).
   */
  run(request: MediaProcessRequest, opts: {
    signal?: AbortSignal;
    onProgress?: (processedSeconds: number) => void;
    onPhase?: (phase: 'ffmpeg_started' | 'ffmpeg_ended') => void;
  }): Promise<StoredMedia>;
}

/**
 * Signed, expiring links to finished media jobs' outputs: what a browser downloads with, without
 * the API key. Forged, altered or expired links do not verify.
 */
export interface MediaJobOutputLinks {
  /** The link to job `jobId`'s output, valid until `notAfter` at the latest (the output's own expiry). */
  url(jobId: string, notAfter?: Date): string;
  verify(jobId: string, exp: string | undefined, sig: string | undefined): boolean;
}
