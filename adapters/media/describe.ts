import type { MediaRef } from '../../core/domain/media';
import type { MediaFetcher, MediaProbe } from '../../core/ports/media';
import type { UrlMediaFetcher } from './url-fetcher';

const BY_EXTENSION: Record<string, string> = {
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska', mpeg: 'video/mpeg', mpg: 'video/mpeg',
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', heic: 'image/heic', bmp: 'image/bmp',
};
const BY_CONTAINER: Array<[RegExp, string]> = [[/mp4|mov/, 'video/mp4'], [/webm/, 'video/webm'], [/jpeg_pipe/, 'image/jpeg'], [/png_pipe/, 'image/png'], [/gif/, 'image/gif'], [/webp_pipe/, 'image/webp']];

/**
 * Clients (curl -F file=@clip.mp4) often send application/octet-stream: the networks need the real
 * type, so a generic one is replaced from the file name, and else from what ffprobe found.
 */
export function realContentType(declared: string, filename: string | undefined, container?: string | null): string {
  const generic = !declared || declared === 'application/octet-stream';
  if (!generic) return declared;
  const ext = filename?.split('.').pop()?.toLowerCase();
  if (ext && BY_EXTENSION[ext]) return BY_EXTENSION[ext]!;
  const found = container ? BY_CONTAINER.find(([re]) => re.test(container)) : undefined;
  return found ? found[1] : declared;
}

export const isVideoType = (t: string) => t.startsWith('video/') || t === 'application/octet-stream';
export const isImageType = (t: string) => t.startsWith('image/');
export const isMediaType = (t: string) => isVideoType(t) || isImageType(t);

/** Probes a stored file once and describes it as the post's media. */
export async function describeStored(probe: MediaProbe, id: string, declared: string, size: number, filename?: string): Promise<MediaRef> {
  const info = await probe.probe(id).catch(() => undefined);
  const contentType = realContentType(declared, filename, info?.container);
  const isVideo = contentType.startsWith('video/') || (contentType === 'application/octet-stream' && !!info?.durationSeconds);
  return { id, kind: isVideo ? 'video' : 'image', contentType, size, ...(filename ? { filename } : {}), ...(info ? { info } : {}) };
}

/** URL media into the store, SSRF-checked and probed: used at intake and by the worker's background fetch. */
export function createMediaFetcher(urls: UrlMediaFetcher, probe: MediaProbe): MediaFetcher {
  return {
    async fetch(url, field, expect) {
      const stored = await urls.fetchInto(url, expect === 'video' ? isVideoType : isMediaType, field);
      return describeStored(probe, stored.id, stored.contentType, stored.size, stored.filename);
    },
    vet: (url, field) => urls.vet(url, field),
  };
}

/**
 * Links to cloud drives (Google Drive, Dropbox, OneDrive, Box…) are fetched before the response
 * even for asynchronous requests: they often answer an HTML page (sharing settings, a virus-scan
 * interstitial) instead of the file, and the caller should hear that at once.
 */
const CLOUD_DRIVE_HOSTS = [
  'drive.google.com', 'docs.google.com', 'drive.usercontent.google.com', 'dropbox.com', 'dl.dropboxusercontent.com',
  'onedrive.live.com', '1drv.ms', 'sharepoint.com', 'box.com', 'app.box.com', 'icloud.com', 'mega.nz', 'wetransfer.com', 'we.tl',
];
export function isCloudDriveLink(raw: string): boolean {
  let host: string;
  try {
    host = new URL(raw).hostname.toLowerCase();
  } catch {
    return false;
  }
  return CLOUD_DRIVE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}

/** A guess from the URL's file name, until the download tells (photos endpoint: image unless it looks like a video). */
export function guessKind(raw: string, expect: 'video' | 'media'): 'video' | 'image' {
  if (expect === 'video') return 'video';
  let ext: string | undefined;
  try {
    ext = new URL(raw).pathname.split('.').pop()?.toLowerCase();
  } catch {
    ext = undefined;
  }
  return ext && BY_EXTENSION[ext]?.startsWith('video/') ? 'video' : 'image';
}
