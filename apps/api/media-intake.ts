import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Context } from 'koa';
import { invalidInput } from '../../core/domain/errors';
import type { MediaRef } from '../../core/domain/media';
import type { MediaKind } from '../../core/domain/platforms';
import type { MediaProbe, MediaStore } from '../../core/ports/media';
import type { UrlMediaFetcher } from '../../adapters/media/url-fetcher';

/** A file formidable has written to a temporary path while the request streamed in. */
interface UploadedFile {
  filepath: string;
  mimetype?: string | null;
  originalFilename?: string | null;
  size: number;
}

export interface MediaIntakeDeps {
  mediaStore: MediaStore;
  mediaProbe: MediaProbe;
  urlFetcher: UrlMediaFetcher;
}

const BY_EXTENSION: Record<string, string> = {
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska', mpeg: 'video/mpeg', mpg: 'video/mpeg',
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', heic: 'image/heic', bmp: 'image/bmp',
};
const BY_CONTAINER: Array<[RegExp, string]> = [[/mp4|mov/, 'video/mp4'], [/webm/, 'video/webm'], [/jpeg_pipe/, 'image/jpeg'], [/png_pipe/, 'image/png'], [/gif/, 'image/gif'], [/webp_pipe/, 'image/webp']];

/**
 * Clients (curl -F file=@clip.mp4) often send application/octet-stream: the networks need the real
 * type, so a generic one is replaced from the file name, and else from what ffprobe found.
 */
function realContentType(declared: string, filename: string | undefined, container?: string | null): string {
  const generic = !declared || declared === 'application/octet-stream';
  if (!generic) return declared;
  const ext = filename?.split('.').pop()?.toLowerCase();
  if (ext && BY_EXTENSION[ext]) return BY_EXTENSION[ext]!;
  const found = container ? BY_CONTAINER.find(([re]) => re.test(container)) : undefined;
  return found ? found[1] : declared;
}

const isVideoType = (t: string) => t.startsWith('video/') || t === 'application/octet-stream';
const isImageType = (t: string) => t.startsWith('image/');
const isMediaType = (t: string) => isVideoType(t) || isImageType(t);

function filesOf(ctx: Context): Record<string, UploadedFile[]> {
  const raw = (ctx.request as unknown as { files?: Record<string, UploadedFile | UploadedFile[]> }).files ?? {};
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
}

/** Removes the request's temporary upload files (idempotent), whatever happened to the request. */
export async function removeTempFiles(ctx: Context): Promise<void> {
  await Promise.all(Object.values(filesOf(ctx)).flat().map((f) => rm(f.filepath, { force: true })));
}

const asList = (v: unknown): string[] => (v === undefined || v === null || v === '' ? [] : (Array.isArray(v) ? v : [v]).map(String));

/**
 * Moves the request's media into the media store: uploaded files (already streamed to temporary
 * files, never held in memory) and URLs (downloaded with SSRF checks), then probes each once.
 * Returns the post's media in request order and the file-type settings fields (thumbnail,
 * cover image, subtitles…) as MediaRefs.
 */
export async function takeMedia(deps: MediaIntakeDeps, ctx: Context, kind: MediaKind, fields: Record<string, unknown>): Promise<{ media: MediaRef[]; fileFields: Record<string, MediaRef> }> {
  const files = filesOf(ctx);
  const cleanup = Object.values(files).flat().map((f) => f.filepath);
  try {
    const storeFile = async (file: UploadedFile, field: string, accept: (t: string) => boolean): Promise<MediaRef> => {
      const contentType = realContentType((file.mimetype ?? '').toLowerCase(), file.originalFilename ?? undefined);
      if (!accept(contentType)) throw invalidInput(`${field}: ${file.originalFilename ?? 'the file'} is ${contentType}, which this field does not take.`, undefined, 'media_type_unsupported');
      const stored = await deps.mediaStore.put(createReadStream(file.filepath), { contentType });
      return describe(stored.id, contentType, stored.size, file.originalFilename ?? undefined);
    };
    const storeUrl = async (url: string, field: string, accept: (t: string) => boolean): Promise<MediaRef> => {
      const stored = await deps.urlFetcher.fetchInto(url, accept, field);
      return describe(stored.id, stored.contentType, stored.size, stored.filename);
    };
    const describe = async (id: string, declared: string, size: number, filename?: string): Promise<MediaRef> => {
      const info = await deps.mediaProbe.probe(id).catch(() => undefined);
      const contentType = realContentType(declared, filename, info?.container);
      const isVideo = contentType.startsWith('video/') || (contentType === 'application/octet-stream' && !!info?.durationSeconds);
      return { id, kind: isVideo ? 'video' : 'image', contentType, size, ...(filename ? { filename } : {}), ...(info ? { info } : {}) };
    };

    const media: MediaRef[] = [];
    if (kind === 'video') {
      for (const file of files.video ?? []) media.push(await storeFile(file, 'video', isVideoType));
      for (const url of asList(fields.video)) media.push(await storeUrl(url, 'video', isVideoType));
    } else if (kind === 'photo') {
      for (const name of ['photos[]', 'photos']) {
        for (const file of files[name] ?? []) media.push(await storeFile(file, name, isMediaType));
        for (const url of asList(fields[name])) media.push(await storeUrl(url, name, isMediaType));
      }
    }
    const fileFields: Record<string, MediaRef> = {};
    for (const [name, list] of Object.entries(files)) {
      if (['video', 'photos', 'photos[]'].includes(name)) continue;
      fileFields[name] = await storeFile(list[list.length - 1]!, name, () => true);
    }
    return { media, fileFields };
  } finally {
    await Promise.all(cleanup.map((p) => rm(p, { force: true })));
  }
}
