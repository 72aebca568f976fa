/** What ffprobe tells about a stored file (null where the file has no such property). */
export interface MediaInfo {
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  frameRate: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  container: string | null;
}

/** Media of a post, in Herald's media store (or, briefly, a URL still to fetch). */
export interface MediaRef {
  /** Media store id (content address); empty while a URL of an asynchronous request is still to be fetched. */
  id: string;
  kind: 'image' | 'video' | 'document';
  contentType: string;
  size: number;
  filename?: string;
  /** ffprobe facts (videos; images carry width/height when known). */
  info?: MediaInfo;
  /** Where URL media came from; with an empty `id` the worker still has to fetch it. */
  source?: { url: string; field: string };
}

/** URL media accepted with an asynchronous request and not fetched yet. */
export const isUnfetched = (m: MediaRef): boolean => m.id === '' && m.source !== undefined;
