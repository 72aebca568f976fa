import { rm } from 'node:fs/promises';
import type { Context } from 'koa';
import { invalidInput } from '../../core/domain/errors';
import type { MediaRef } from '../../core/domain/media';
import type { MediaKind } from '../../core/domain/platforms';
import type { MediaFetcher, MediaProbe, MediaStore } from '../../core/ports/media';
import type { MediaUploadType } from '../../core/domain/media-upload';
import { stagedUploadId } from '../../core/usecases/media-uploads';
import { describeStored, guessKind, isCloudDriveLink, isMediaType, isVideoType, realContentType } from '../../adapters/media/describe';

/** A file formidable has written to a temporary path while the request streamed in. */
export interface UploadedFile {
  filepath: string;
  mimetype?: string | null;
  originalFilename?: string | null;
  size: number;
  /** SHA-256 (hex) of the bytes, computed as they were written (apps/api/body.ts). */
  hash?: string | null;
}

/**
 * Moves an uploaded file into the media store: its temporary file is renamed into place and its
 * digest, computed while the request streamed in, is the id (no second copy, no second read).
 */
export function storeUpload(store: MediaStore, file: UploadedFile, contentType: string) {
  return store.putFile(file.filepath, { contentType, ...(file.hash ? { sha256: file.hash } : {}) });
}

export interface MediaIntakeDeps {
  mediaStore: MediaStore;
  mediaProbe: MediaProbe;
  mediaFetcher: MediaFetcher;
}

/** A staged upload named in a media field (`media-upload:<id>`), as the post's media: checked by the use case (stagedMedia). */
export type StagedLookup = (id: string, field: string, takes: readonly MediaUploadType[]) => Promise<MediaRef>;

function filesOf(ctx: Context): Record<string, UploadedFile[]> {
  const raw = (ctx.request as unknown as { files?: Record<string, UploadedFile | UploadedFile[]> }).files ?? {};
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
}

/** Removes the request's temporary upload files (idempotent), whatever happened to the request. */
export async function removeTempFiles(ctx: Context): Promise<void> {
  await Promise.all(Object.values(filesOf(ctx)).flat().map((f) => rm(f.filepath, { force: true })));
}

/** The document types LinkedIn takes, by the part's type or, for generic types, the file's extension. */
const DOCUMENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf', ppt: 'application/vnd.ms-powerpoint', doc: 'application/msword',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
function documentType(sent: string, filename: string | undefined): string | undefined {
  if (Object.values(DOCUMENT_TYPES).includes(sent)) return sent;
  const ext = filename?.toLowerCase().split('.').pop();
  return ext && (sent === '' || sent === 'application/octet-stream') ? DOCUMENT_TYPES[ext] : undefined;
}

/** A part's file name and type as sent, without control characters (they are stored with the post; PostgreSQL refuses NUL). */
const printable = (s: string | null | undefined): string | undefined => s?.replace(/\p{Cc}/gu, '') || undefined;

const asList = (v: unknown): string[] => (v === undefined || v === null || v === '' ? [] : (Array.isArray(v) ? v : [v]).map(String));

/**
 * Moves the request's media into the media store: uploaded files (already streamed to temporary
 * files, never held in memory) and URLs (downloaded with SSRF checks), then probes each once.
 * With `deferUrls` (asynchronous, scheduled and queued requests) URL media is only vetted here
 * and fetched by the worker in the background (`source` set, empty `id`); cloud-drive links are
 * still fetched now. Returns the post's media in request order and the file-type settings fields
 * (thumbnail, cover image, subtitles…) as MediaRefs.
 */
export async function takeMedia(
  deps: MediaIntakeDeps, ctx: Context, kind: MediaKind, fields: Record<string, unknown>, opts: { deferUrls?: boolean; staged?: StagedLookup } = {},
): Promise<{ media: MediaRef[]; fileFields: Record<string, MediaRef>; stagedIds: string[] }> {
  const files = filesOf(ctx);
  const cleanup = Object.values(files).flat().map((f) => f.filepath);
  try {
    const storeFile = async (file: UploadedFile, field: string, accept: (t: string) => boolean): Promise<MediaRef> => {
      const filename = printable(file.originalFilename);
      const contentType = realContentType(printable(file.mimetype)?.toLowerCase() ?? '', filename);
      if (!accept(contentType)) throw invalidInput(`${field}: ${filename ?? 'the file'} is ${contentType}, which this field does not take.`, undefined, 'media_type_unsupported');
      const stored = await storeUpload(deps.mediaStore, file, contentType);
      return describeStored(deps.mediaProbe, stored.id, contentType, stored.size, filename);
    };
    const stagedIds: string[] = [];
    // A staged upload is in the media store already: described like a stored file, nothing fetched.
    const takeStaged = async (id: string, field: string, takes: readonly MediaUploadType[]): Promise<MediaRef> => {
      if (!opts.staged) throw invalidInput(`${field}: staged media uploads are not available on this server.`, { violations: [{ field, message: 'no media uploads' }] }, 'media_upload_unusable');
      const ref = await opts.staged(id, field, takes);
      stagedIds.push(id);
      return ref.kind === 'document' ? ref : describeStored(deps.mediaProbe, ref.id, ref.contentType, ref.size, ref.filename);
    };
    const storeUrl = async (url: string, field: string, expect: 'video' | 'media'): Promise<MediaRef> => {
      const staged = stagedUploadId(url);
      if (staged !== undefined) return takeStaged(staged, field, expect === 'video' ? ['video'] : ['image', 'video']);
      if (opts.deferUrls && !isCloudDriveLink(url)) {
        await deps.mediaFetcher.vet(url, field);
        return { id: '', kind: guessKind(url, expect), contentType: '', size: 0, source: { url, field } };
      }
      return deps.mediaFetcher.fetch(url, field, expect);
    };

    const media: MediaRef[] = [];
    if (kind === 'video') {
      for (const file of files.video ?? []) media.push(await storeFile(file, 'video', isVideoType));
      for (const url of asList(fields.video)) media.push(await storeUrl(url, 'video', 'video'));
    } else if (kind === 'document') {
      for (const file of files.document ?? []) {
        const filename = printable(file.originalFilename);
        const contentType = documentType(printable(file.mimetype)?.toLowerCase() ?? '', filename);
        if (!contentType) throw invalidInput(`document: ${filename ?? 'the file'} is not a PDF, PPT, PPTX, DOC or DOCX file.`, { violations: [{ field: 'document', message: 'PDF, PPT, PPTX, DOC or DOCX' }] }, 'media_type_unsupported');
        const stored = await storeUpload(deps.mediaStore, file, contentType);
        media.push({ id: stored.id, kind: 'document', contentType, size: stored.size, ...(filename ? { filename } : {}) });
      }
      const named = asList(fields.document);
      for (const value of named) {
        const staged = stagedUploadId(value);
        if (staged !== undefined) media.push(await takeStaged(staged, 'document', ['document']));
      }
      if (named.some((v) => stagedUploadId(v) === undefined)) throw invalidInput('document: send the document as a file part (or media-upload:<upload_id>); URLs are not taken for documents.', { violations: [{ field: 'document', message: 'a file part' }] });
    } else if (kind === 'photo') {
      for (const name of ['photos[]', 'photos']) {
        for (const file of files[name] ?? []) media.push(await storeFile(file, name, isMediaType));
        for (const url of asList(fields[name])) media.push(await storeUrl(url, name, 'media'));
      }
    }
    const fileFields: Record<string, MediaRef> = {};
    for (const [name, list] of Object.entries(files)) {
      if (['video', 'photos', 'photos[]', 'document'].includes(name)) continue;
      fileFields[name] = await storeFile(list[list.length - 1]!, name, () => true);
    }
    return { media, fileFields, stagedIds };
  } finally {
    await Promise.all(cleanup.map((p) => rm(p, { force: true })));
  }
}
