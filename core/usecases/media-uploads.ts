import { conflict, HeraldError, invalidInput, notFound } from '../domain/errors';
import type { MediaRef } from '../domain/media';
import {
  checkContentLength, checkContentType, checkFilename, parseContentRange, sniffMatches, stateAt, toMediaUploadView,
  type MediaUpload, type MediaUploadType,
} from '../domain/media-upload';
import type { OperatorAccount } from '../domain/operator';
import type { MediaStore } from '../ports/media';
import { StagedOverflowError, type StagedBytes, type UploadUrls } from '../ports/media-uploads';
import type { MediaUploadRepository } from '../ports/storage/media-uploads';
import type { Storage } from '../ports/storage';
import type { Clock, IdGenerator } from '../ports/system';
import { checkMonthlyQuota } from './submit-upload';

export interface MediaUploadSettings {
  /** How long staged media lives unless a post uses it (HERALD_MEDIA_UPLOAD_TTL_MS). */
  ttlMs: number;
  /** Uploads larger than this are resumable by Content-Range (HERALD_MEDIA_UPLOAD_RESUMABLE_BYTES). */
  resumableAboveBytes: number;
  /** The media size limit (HERALD_MEDIA_MAX_BYTES). */
  maxBytes: number;
}

export interface MediaUploadDeps {
  mediaUploads: MediaUploadRepository;
  stagedBytes: StagedBytes;
  uploadUrls: UploadUrls;
  /** Temporary signed URLs of stored media (the `/media/{id}` signer). */
  mediaUrls: { url(id: string): string };
  mediaStore: Pick<MediaStore, 'delete'>;
  ids: IdGenerator;
  clock: Clock;
  settings: MediaUploadSettings;
  /** The uploads, for the monthly quota: a file for a post the plan can no longer make is not staged. */
  storage?: Pick<Storage, 'uploads'>;
}

const uploadNotFound = (id: string) => notFound(`No media upload ${id} on this account.`, 'media_upload_not_found');
const isResumable = (u: MediaUpload, s: MediaUploadSettings) => u.contentLength > s.resumableAboveBytes;

/** The answer to a create: the upload and where to PUT its bytes. */
function created(deps: MediaUploadDeps, u: MediaUpload) {
  return {
    ...toMediaUploadView(u, deps.clock.now(), 0),
    upload_url: deps.uploadUrls.url(u.id, u.expiresAt),
    upload_method: 'PUT' as const,
    resumable: isResumable(u, deps.settings),
    resumable_above_bytes: deps.settings.resumableAboveBytes,
  };
}

export interface NewMediaUpload {
  filename: unknown;
  content_type: unknown;
  content_length: unknown;
  media_type: MediaUploadType;
  source?: string | undefined;
}

/** Declares an upload (nothing is stored but its record): the signed URL to PUT the bytes to. */
export async function createMediaUpload(deps: MediaUploadDeps, account: OperatorAccount, input: NewMediaUpload) {
  const now = deps.clock.now();
  const contentLength = checkContentLength(input.content_length, deps.settings.maxBytes);
  if (deps.storage) await checkMonthlyQuota({ storage: deps.storage, clock: deps.clock }, account);
  const upload: MediaUpload = {
    id: deps.ids.next('mu'),
    accountId: account.id,
    filename: checkFilename(input.filename),
    contentType: checkContentType(input.content_type, input.media_type),
    mediaType: input.media_type,
    contentLength,
    ...(input.source !== undefined ? { source: input.source } : {}),
    state: 'created',
    createdAt: now,
    expiresAt: new Date(now.getTime() + deps.settings.ttlMs),
  };
  await deps.mediaUploads.insert(upload);
  return created(deps, upload);
}

/** The upload a signed URL names, once its signature and expiry are checked. */
async function signedUpload(deps: MediaUploadDeps, id: string, exp: string | undefined, sig: string | undefined): Promise<MediaUpload> {
  const verdict = deps.uploadUrls.verify(id, exp, sig);
  if (verdict === 'forged') throw new HeraldError('forbidden', 'This upload URL\'s signature is not valid: PUT to the upload_url exactly as Herald gave it.', 'upload_url_invalid');
  const upload = await deps.mediaUploads.get(id);
  const expired = () => new HeraldError('forbidden', 'This upload URL has expired: create another upload.', 'upload_url_expired');
  if (verdict === 'expired') throw expired();
  if (!upload) throw notFound(`No media upload ${id}.`, 'media_upload_not_found');
  if (stateAt(upload, deps.clock.now()) === 'expired') throw expired();
  return upload;
}

const completedAlready = (u: MediaUpload) => conflict(`Media upload ${u.id} is completed: its URL takes no more bytes.`, 'upload_already_completed');
const busy = (received: number) => conflict('Another PUT of this upload is still running; wait for it, then read received_bytes and go on.', 'upload_in_progress', { received_bytes: received });

/** Runs `fn` holding the upload's staging lock (one writer of its bytes and of its record at a time). */
async function locked<T>(deps: MediaUploadDeps, id: string, fn: () => Promise<T>): Promise<T> {
  const release = await deps.stagedBytes.lock(id);
  if (!release) throw busy(await deps.stagedBytes.received(id));
  try {
    return await fn();
  } finally {
    await release();
  }
}

export interface BytesRequest {
  id: string;
  exp?: string | undefined;
  sig?: string | undefined;
  /** The Content-Range header, when sent. */
  contentRange?: string | undefined;
  /** The Content-Length header, when sent (chunked transfer has none). */
  length?: number | undefined;
  body: AsyncIterable<Uint8Array>;
}

/**
 * Receives bytes at a signed upload URL, streamed to the staging file. Without Content-Range the
 * body is the whole file (what an earlier PUT left is replaced). With `Content-Range: bytes
 * s-e/total` (resumable uploads only) it is the chunk s..e, and s must be the received offset.
 * Too many bytes, bytes of another type than declared, or a non-resumable PUT that did not
 * arrive whole: refused, and those bytes are not kept. An interrupted resumable PUT keeps what
 * arrived (fsync'd), to resume from `received_bytes`.
 */
export async function receiveMediaUploadBytes(deps: MediaUploadDeps, req: BytesRequest) {
  const upload = await signedUpload(deps, req.id, req.exp, req.sig);
  if (upload.state === 'completed' || upload.state === 'used') throw completedAlready(upload);
  return locked(deps, upload.id, async () => {
    const total = upload.contentLength;
    const received = await deps.stagedBytes.received(upload.id);
    const range = chunkOf(deps, upload, req, received);
    if (req.length !== undefined && req.length !== range.end - range.start) {
      throw lengthMismatch(`The body has ${req.length} bytes where the range needs ${range.end - range.start}.`, received, total);
    }
    if (upload.state === 'created') await deps.mediaUploads.update(upload.id, { state: 'uploading' });
    let written: Awaited<ReturnType<StagedBytes['write']>>;
    try {
      written = await deps.stagedBytes.write(upload.id, req.body, {
        offset: range.start, limit: range.end, total,
        checkHead: (sniffed) => {
          if (!sniffMatches(upload.contentType, sniffed)) throw typeMismatch(upload, sniffed);
        },
      });
    } catch (err) {
      // A refused chunk leaves no bytes of it; a refused whole PUT leaves none at all.
      await keepOnly(deps, upload, range.start === 0 ? 0 : range.start);
      if (err instanceof StagedOverflowError) throw lengthMismatch(`More bytes than ${range.end - range.start} arrived${range.whole ? ' (content_length)' : ' (the Content-Range)'}; nothing of them was kept.`, range.start, total);
      throw err;
    }
    if (written.aborted && !isResumable(upload, deps.settings)) await keepOnly(deps, upload, 0);
    if (written.received < range.end) {
      const kept = isResumable(upload, deps.settings) ? written.received : 0;
      throw lengthMismatch(`The body ended after ${written.received - range.start} of ${range.end - range.start} bytes.${kept ? ` ${kept} bytes are kept: PUT the rest with Content-Range: bytes ${kept}-${total - 1}/${total}.` : ''}`, kept, total);
    }
    return { upload_id: upload.id, state: 'uploading', received_bytes: written.received, content_length: total, complete: written.received === total };
  });
}

/** Where the body goes: the whole file, or a chunk that starts at the received offset. */
function chunkOf(deps: MediaUploadDeps, upload: MediaUpload, req: BytesRequest, received: number): { start: number; end: number; whole: boolean } {
  const total = upload.contentLength;
  if (req.contentRange === undefined) return { start: 0, end: total, whole: true };
  const range = parseContentRange(req.contentRange);
  if (!range) throw invalidInput(`Content-Range must be "bytes <start>-<end>/${total}" (got "${req.contentRange}").`, { violations: [{ field: 'Content-Range', message: 'bytes <start>-<end>/<total>' }] });
  if (!isResumable(upload, deps.settings)) {
    throw invalidInput(`Uploads of at most ${deps.settings.resumableAboveBytes} bytes are sent whole: PUT the file without Content-Range.`, { violations: [{ field: 'Content-Range', message: 'not for this size' }] });
  }
  if (range.total !== total) throw lengthMismatch(`Content-Range's total ${range.total} is not the declared content_length ${total}.`, received, total);
  if (range.start !== received) {
    throw conflict(`This chunk starts at ${range.start}, the upload holds ${received} bytes: send from ${received}.`, 'upload_offset_mismatch', { received_bytes: received, content_length: total });
  }
  return { start: range.start, end: range.end + 1, whole: false };
}

async function keepOnly(deps: MediaUploadDeps, upload: MediaUpload, bytes: number): Promise<void> {
  // Bytes up to `bytes` were there before this PUT: a chunk's refusal does not cost the earlier ones.
  if (bytes === 0) await deps.stagedBytes.remove(upload.id);
  else await deps.stagedBytes.write(upload.id, (async function* () {})(), { offset: bytes, limit: bytes, total: upload.contentLength });
}

const lengthMismatch = (message: string, received: number, total: number) =>
  invalidInput(message, { received_bytes: received, content_length: total }, 'upload_length_mismatch');
const typeMismatch = (u: MediaUpload, sniffed: string | undefined) => invalidInput(
  `The bytes are ${sniffed ? `a ${sniffed} file` : 'of no type Herald takes'}, not ${u.contentType} as declared; nothing was kept.`,
  { sniffed_type: sniffed ?? null }, 'media_type_mismatch',
);

/** What a client that lost its connection asks the upload URL: how many bytes are there. */
export async function mediaUploadOffset(deps: MediaUploadDeps, req: Pick<BytesRequest, 'id' | 'exp' | 'sig'>) {
  const upload = await signedUpload(deps, req.id, req.exp, req.sig);
  const done = upload.state === 'completed' || upload.state === 'used';
  return { upload_id: upload.id, state: upload.state, received_bytes: done ? upload.contentLength : await deps.stagedBytes.received(upload.id), content_length: upload.contentLength };
}

/** Checks length and type of the received bytes and moves them into the media store. */
export async function completeMediaUpload(deps: MediaUploadDeps, account: OperatorAccount, id: string) {
  const upload = await deps.mediaUploads.find(account.id, id);
  if (!upload) throw uploadNotFound(id);
  if (stateAt(upload, deps.clock.now()) === 'expired') throw new HeraldError('forbidden', `Media upload ${id} has expired: create another one.`, 'upload_url_expired');
  if (upload.state === 'completed' || upload.state === 'used') return getMediaUpload(deps, account, id);
  return locked(deps, id, async () => {
    const received = await deps.stagedBytes.received(id);
    if (received !== upload.contentLength) {
      throw conflict(`Media upload ${id} holds ${received} of ${upload.contentLength} bytes: PUT the rest first.`, 'upload_incomplete', { received_bytes: received, content_length: upload.contentLength });
    }
    const sniffed = await deps.stagedBytes.sniff(id);
    if (!sniffMatches(upload.contentType, sniffed)) {
      await deps.stagedBytes.remove(id);
      throw typeMismatch(upload, sniffed);
    }
    // The digest was computed while the last bytes were written; a write of this process gives it back here.
    const sha256 = await deps.stagedBytes.sha256(id);
    const stored = await deps.stagedBytes.commit(id, { contentType: upload.contentType, sha256 });
    const done = { state: 'completed' as const, sha256: stored.id, sniffedType: sniffed!, mediaId: stored.id, completedAt: deps.clock.now() };
    await deps.mediaUploads.update(id, done);
    return toMediaUploadView({ ...upload, ...done }, deps.clock.now(), upload.contentLength);
  });
}

/** The upload's state; `url` (a temporary signed URL of the stored bytes) when asked and stored. */
export async function getMediaUpload(deps: MediaUploadDeps, account: OperatorAccount, id: string, opts: { includeUrl?: boolean } = {}) {
  const upload = await deps.mediaUploads.find(account.id, id);
  if (!upload) throw uploadNotFound(id);
  const done = upload.state === 'completed' || upload.state === 'used';
  const view = toMediaUploadView(upload, deps.clock.now(), done ? upload.contentLength : await deps.stagedBytes.received(id));
  return { ...view, ...(opts.includeUrl && upload.mediaId && view.state !== 'expired' ? { url: deps.mediaUrls.url(upload.mediaId) } : {}) };
}

/** Removes the upload and its bytes; stored bytes only when no post uses them. */
export async function deleteMediaUpload(deps: MediaUploadDeps, account: OperatorAccount, id: string) {
  const upload = await deps.mediaUploads.find(account.id, id);
  if (!upload) throw uploadNotFound(id);
  return locked(deps, id, async () => {
    await deps.stagedBytes.remove(id);
    if (upload.mediaId && upload.state !== 'used') await deps.mediaStore.delete(upload.mediaId);
    await deps.mediaUploads.delete(account.id, id);
    return { upload_id: id, deleted: true, media_kept: upload.state === 'used' };
  });
}

/** The value of a media field that names a staged upload instead of a file or URL. */
export const STAGED_PREFIX = 'media-upload:';
export const stagedUploadId = (value: string): string | undefined => (value.startsWith(STAGED_PREFIX) ? value.slice(STAGED_PREFIX.length).trim() : undefined);

/**
 * The media of a post from a staged upload (`media-upload:<id>` in a media field): a completed
 * upload of the account, of a media type the field takes. `markStagedUsed` then marks it used
 * once the post is accepted, so its expiry keeps the stored bytes the post names by media id.
 */
export async function stagedMedia(
  deps: Pick<MediaUploadDeps, 'mediaUploads' | 'clock'>, account: OperatorAccount, id: string, field: string, takes: readonly MediaUploadType[],
): Promise<MediaRef> {
  const upload = id ? await deps.mediaUploads.find(account.id, id) : null;
  if (!upload) throw notFound(`${field}: no media upload ${id} on this account.`, 'media_upload_not_found');
  const state = stateAt(upload, deps.clock.now());
  const refuse = (why: string) => invalidInput(`${field}: media upload ${id} ${why}.`, { violations: [{ field, message: why }] }, 'media_upload_unusable');
  if (state === 'expired') throw refuse('has expired');
  if (state !== 'completed' && state !== 'used') throw refuse(`is ${state}; complete it first (POST /media-uploads/${id}/complete)`);
  if (!takes.includes(upload.mediaType)) throw refuse(`is a ${upload.mediaType}; this field takes ${takes.join(' or ')}`);
  return { id: upload.mediaId!, kind: upload.mediaType, contentType: upload.contentType, size: upload.contentLength, filename: upload.filename };
}

/** Marks the staged uploads a post was accepted with as used (first use wins `usedBy`). */
export async function markStagedUsed(deps: Pick<MediaUploadDeps, 'mediaUploads'>, account: OperatorAccount, ids: readonly string[], usedBy: string): Promise<void> {
  for (const id of new Set(ids)) {
    const upload = await deps.mediaUploads.find(account.id, id);
    if (upload?.state === 'completed') await deps.mediaUploads.update(id, { state: 'used', usedBy });
  }
}

/** The periodic cleanup: expired uploads go with their bytes, except stored bytes a post uses. */
export async function expireMediaUploads(deps: Pick<MediaUploadDeps, 'mediaUploads' | 'stagedBytes' | 'mediaStore' | 'clock'>): Promise<number> {
  const gone = await deps.mediaUploads.deleteExpired(deps.clock.now());
  for (const u of gone) {
    await deps.stagedBytes.remove(u.id);
    if (u.mediaId && u.state !== 'used') await deps.mediaStore.delete(u.mediaId);
  }
  return gone.length;
}
