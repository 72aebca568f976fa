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

/** Media of a post, already in Herald's media store. */
export interface MediaRef {
  /** Media store id (content address). */
  id: string;
  kind: 'image' | 'video';
  contentType: string;
  size: number;
  filename?: string;
  /** ffprobe facts (videos; images carry width/height when known). */
  info?: MediaInfo;
}
