/** Simulated Images and Videos APIs: initializeUpload, signed upload URLs, finalizeUpload, processing. */
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendEmpty, sendJson, type SimRequest } from '../kit/http';
import { accessDenied, badRequest, invalidField, notFound, restError } from './answers';
import { jsonBody, mayActAs as mayActAsIn } from './requests';
import { THUMBNAIL_MAX_BYTES, VIDEO_MAX_BYTES, type LinkedInState, type TokenRecord, type UploadSlot, type VideoRecord } from './state';
import { isImageBytes, isMp4Bytes, isObj } from './text';
import { createLinkedInDocuments } from './documents';

export function createLinkedInMedia(s: LinkedInState) {
  const { uploads, images, videos, secret, mediaId } = s;
  const mayActAs = (token: TokenRecord, urn: unknown) => mayActAsIn(s, token, urn);
  const documentsOf = createLinkedInDocuments(s, s.documents);

  function uploadUrl(slot: Omit<UploadSlot, 'sig'>): string {
    const id = randomBytes(12).toString('hex');
    const sig = secret(16);
    uploads.set(id, { ...slot, sig });
    return `${s.origin}/dms-uploads/${id}?sig=${sig}`;
  }

  function initializeImage(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string) {
    const body = jsonBody(req, res);
    if (!body) return;
    const request = body.initializeUploadRequest;
    if (!isObj(request) || typeof request.owner !== 'string') return invalidField(res, '/initializeUploadRequest/owner', 'field is required but not found');
    if (!mayActAs(token, request.owner)) return accessDenied(res, 'images.INITIALIZE_UPLOAD', version);
    const urn = mediaId('urn:li:image:C4E10AQ');
    images.set(urn, { urn, owner: request.owner, status: 'WAITING_UPLOAD' });
    sendJson(res, 200, { value: { uploadUrlExpiresAt: Date.now() + 86400_000, uploadUrl: uploadUrl({ kind: 'image', urn }), image: urn } });
  }

  function initializeVideo(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string) {
    const body = jsonBody(req, res);
    if (!body) return;
    const r = body.initializeUploadRequest;
    if (!isObj(r) || typeof r.owner !== 'string') return invalidField(res, '/initializeUploadRequest/owner', 'field is required but not found');
    const size = r.fileSizeBytes;
    if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) return invalidField(res, '/initializeUploadRequest/fileSizeBytes', 'must be a positive integer');
    if (size > VIDEO_MAX_BYTES) return invalidField(res, '/initializeUploadRequest/fileSizeBytes', `must be at most ${VIDEO_MAX_BYTES}`);
    for (const flag of ['uploadCaptions', 'uploadThumbnail']) {
      if (r[flag] !== undefined && typeof r[flag] !== 'boolean') return invalidField(res, `/initializeUploadRequest/${flag}`, 'must be a boolean');
    }
    // Captions are not simulated: Herald never uploads them.
    if (r.uploadCaptions === true) return invalidField(res, '/initializeUploadRequest/uploadCaptions', 'captions are not supported by this simulator');
    if (!mayActAs(token, r.owner)) return accessDenied(res, 'videos.INITIALIZE_UPLOAD', version);
    const urn = mediaId('urn:li:video:C5F10AQ');
    const parts: VideoRecord['parts'] = [];
    for (let first = 0; first < size; first += s.partBytes) parts.push({ firstByte: first, lastByte: Math.min(size, first + s.partBytes) - 1 });
    // LinkedIn gives single-part uploads an empty upload token.
    const video: VideoRecord = { urn, owner: r.owner, fileSizeBytes: size, status: 'WAITING_UPLOAD', parts, uploadToken: parts.length > 1 ? secret(24) : '', failProcessing: false };
    videos.set(urn, video);
    const uploadInstructions = parts.map((p, i) => ({ uploadUrl: uploadUrl({ kind: 'part', urn, part: i }), firstByte: p.firstByte, lastByte: p.lastByte }));
    if (r.uploadThumbnail === true) video.thumbnailUrl = uploadUrl({ kind: 'thumbnail', urn });
    sendJson(res, 200, {
      value: {
        uploadUrlsExpireAt: Date.now() + 86400_000,
        video: urn,
        uploadInstructions,
        uploadToken: video.uploadToken,
        ...(video.thumbnailUrl ? { thumbnailUploadUrl: video.thumbnailUrl } : {}),
      },
    });
  }

  function finalizeVideo(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string, failProcessing: boolean) {
    const body = jsonBody(req, res);
    if (!body) return;
    const r = body.finalizeUploadRequest;
    if (!isObj(r) || typeof r.video !== 'string') return invalidField(res, '/finalizeUploadRequest/video', 'field is required but not found');
    const video = videos.get(r.video);
    if (!video) return notFound(res, `Video ${r.video}`);
    if (!mayActAs(token, video.owner)) return accessDenied(res, 'videos.FINALIZE_UPLOAD', version);
    if (video.status !== 'WAITING_UPLOAD') return badRequest(res, `Video ${video.urn} was already finalized`);
    if (r.uploadToken !== video.uploadToken) return badRequest(res, 'The uploadToken does not match this upload');
    const etags = video.parts.map((p) => p.etag);
    if (etags.some((e) => e === undefined)) return badRequest(res, `Not every part of ${video.urn} was uploaded`);
    const ids = Array.isArray(r.uploadedPartIds) ? r.uploadedPartIds : [];
    if (ids.length !== etags.length || ids.some((id, i) => id !== etags[i])) {
      return badRequest(res, 'uploadedPartIds must list the ETag of every part, in the order of the upload instructions');
    }
    video.status = 'PROCESSING';
    video.readyAt = Date.now() + s.processingMs;
    video.failProcessing = failProcessing || !video.head || !isMp4Bytes(video.head);
    sendEmpty(res, 200);
  }

  /** Processing finishes when someone looks after `processingMs`. */
  function settle(video: VideoRecord): VideoRecord {
    if (video.status === 'PROCESSING' && video.readyAt !== undefined && Date.now() >= video.readyAt) {
      video.status = video.failProcessing ? 'PROCESSING_FAILED' : 'AVAILABLE';
      if (video.failProcessing) video.processingFailureReason = 'Video could not be transcoded';
    }
    return video;
  }

  function upload(req: SimRequest, res: ServerResponse, id: string) {
    const slot = uploads.get(id);
    if (!slot || req.query.sig !== slot.sig) return restError(res, 403, 'FORBIDDEN', 'The upload URL is invalid or expired');
    if (req.method !== 'PUT' && req.method !== 'POST') return restError(res, 405, 'METHOD_NOT_ALLOWED', 'Uploads take PUT');
    if (req.body.kind === 'too_large') return restError(res, 413, 'PAYLOAD_TOO_LARGE', 'The uploaded file is too large');
    if (req.body.kind !== 'binary') return badRequest(res, 'Uploads take the raw bytes of the file');
    const bytes = req.body.data;
    if (slot.kind === 'document') return documentsOf.receive(res, slot, bytes);

    if (slot.kind === 'image') {
      const image = images.get(slot.urn)!;
      // Bytes that are no image fail LinkedIn's processing; a post using the image is then refused.
      Object.assign(image, { size: bytes.length, contentType: req.body.contentType, status: isImageBytes(bytes) ? 'AVAILABLE' : 'PROCESSING_FAILED' });
      return sendEmpty(res, 201);
    }
    const video = videos.get(slot.urn)!;
    if (slot.kind === 'thumbnail') {
      if (!isImageBytes(bytes) || bytes.length > THUMBNAIL_MAX_BYTES) return badRequest(res, 'The thumbnail must be a JPG or PNG image up to 10 MB');
      video.thumbnail = { size: bytes.length, contentType: req.body.contentType };
      return sendEmpty(res, 201);
    }
    const part = video.parts[slot.part!]!;
    const expected = part.lastByte - part.firstByte + 1;
    if (bytes.length !== expected) return badRequest(res, `Part ${slot.part} must have ${expected} bytes (${part.firstByte}-${part.lastByte}); got ${bytes.length}`);
    if (part.firstByte === 0) video.head = Buffer.from(bytes.subarray(0, 16));
    part.etag = `/${createHash('sha1').update(bytes).digest('base64url')}`;
    res.writeHead(200, { etag: part.etag, 'content-length': 0 });
    res.end();
  }

  return { initializeImage, initializeVideo, finalizeVideo, settle, upload, documents: documentsOf };
}
