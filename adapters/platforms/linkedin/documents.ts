/**
 * LinkedIn document posts (community-management/shares/documents-api): `POST /rest/documents?
 * action=initializeUpload {initializeUploadRequest: {owner}}` → `value.uploadUrl`, `value.document`
 * (urn:li:document:…); the file's bytes PUT to the upload URL; `GET /rest/documents/{urn}` until
 * `AVAILABLE` (LinkedIn converts the file first); then a post with `content.media {id, title}`.
 * PDF, PPT, PPTX, DOC and DOCX up to 100 MB (LinkedIn's limits; 300 pages, which only LinkedIn counts).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { PublishContext } from '../../../core/ports/platform';
import { collectAll, isObject } from '../kit/http';
import type { LinkedInClient } from './client';
import type { MediaOwner } from './uploads';

export const LINKEDIN_DOCUMENT_TYPES: readonly string[] = [
  'application/pdf',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
];
export const LINKEDIN_DOCUMENT_MAX_BYTES = 100 * 1024 * 1024;

const invalid = (message: string, code?: string) => new PlatformError('linkedin', { kind: 'invalid_content', ...(code ? { code } : {}) }, message);

export function checkDocument(media: readonly MediaRef[]): MediaRef {
  const doc = media[0];
  if (media.length !== 1 || doc?.kind !== 'document') throw invalid('A LinkedIn document post takes exactly one document.', 'document_required');
  if (!LINKEDIN_DOCUMENT_TYPES.includes(doc.contentType)) throw invalid(`LinkedIn documents are PDF, PPT, PPTX, DOC or DOCX files; ${doc.filename ?? 'this file'} is ${doc.contentType}.`, 'unsupported_media');
  if (doc.size > LINKEDIN_DOCUMENT_MAX_BYTES) throw invalid(`LinkedIn documents are limited to 100 MB; this one has ${doc.size} bytes.`, 'document_too_large');
  return doc;
}

export function createLinkedInDocuments(client: LinkedInClient) {
  async function upload(ctx: PublishContext, owner: MediaOwner, doc: MediaRef): Promise<string> {
    const init = await client.rest('POST', '/documents?action=initializeUpload', owner.token, { initializeUploadRequest: { owner: owner.author } }, ctx.signal);
    const value = isObject(init.body) && isObject(init.body.value) ? init.body.value : {};
    if (typeof value.uploadUrl !== 'string' || typeof value.document !== 'string') throw client.malformed(init.status, 'a document upload URL');
    // The upload URL is a blob store that takes the bytes as they are (LinkedIn's example uploads with curl --upload-file).
    await client.putBytes(value.uploadUrl, owner.token, await collectAll(ctx.media.read(doc.id)), 'application/octet-stream', ctx.signal);
    return value.document;
  }

  /** AVAILABLE, PROCESSING / WAITING_UPLOAD (not yet), or a failure. */
  async function status(ctx: PublishContext, token: string, urn: string): Promise<'ready' | 'pending'> {
    const reply = await client.rest('GET', `/documents/${encodeURIComponent(urn)}`, token, undefined, ctx.signal);
    const state = isObject(reply.body) ? reply.body.status : undefined;
    if (state === 'AVAILABLE') return 'ready';
    if (state === 'PROCESSING_FAILED') throw invalid(`LinkedIn could not process the document ${urn}.`, 'document_processing_failed');
    if (typeof state !== 'string') throw client.malformed(reply.status, 'the document status');
    return 'pending';
  }

  return { upload, status };
}
