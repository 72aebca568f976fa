/**
 * The LinkedIn simulator's Documents API (community-management/shares/documents-api):
 * `POST /rest/documents?action=initializeUpload {initializeUploadRequest: {owner}}` → upload URL and
 * `urn:li:document:…`; the bytes PUT there (a PDF, or an Office file: OLE2 for PPT/DOC, ZIP for
 * PPTX/DOCX; at most 100 MB), processed for `processingMs`; `GET /rest/documents/{urn}` with the
 * status (WAITING_UPLOAD, PROCESSING, AVAILABLE, PROCESSING_FAILED). A post uses an AVAILABLE
 * document of its author as `content.media.id`, with a title.
 */
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { sendEmpty, sendJson, type SimRequest } from '../kit/http';
import { accessDenied, badRequest, invalidField, notFound } from './answers';
import { jsonBody, mayActAs } from './requests';
import type { DocumentRecord, LinkedInState, TokenRecord, UploadSlot } from './state';
import { isObj } from './text';

export const DOCUMENT_MAX_BYTES = 100 * 1024 * 1024;


/** What the bytes are: a PDF, an OLE2 Office file (PPT, DOC) or a ZIP one (PPTX, DOCX); undefined for anything else. */
function documentKind(b: Buffer): string | undefined {
  if (b.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (b.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))) return 'application/x-ole-storage';
  if (b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'application/zip';
  return undefined;
}

export function createLinkedInDocuments(s: LinkedInState, documents: Map<string, DocumentRecord>) {
  function settle(doc: DocumentRecord): DocumentRecord {
    if (doc.status === 'PROCESSING' && doc.readyAt !== undefined && Date.now() >= doc.readyAt) doc.status = doc.failProcessing ? 'PROCESSING_FAILED' : 'AVAILABLE';
    return doc;
  }

  function initialize(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string) {
    const body = jsonBody(req, res);
    if (!body) return;
    const r = body.initializeUploadRequest;
    if (!isObj(r) || typeof r.owner !== 'string') return invalidField(res, '/initializeUploadRequest/owner', 'field is required but not found');
    if (!mayActAs(s, token, r.owner)) return accessDenied(res, 'documents.INITIALIZE_UPLOAD', version);
    const urn = s.mediaId('urn:li:document:D4E10AQ');
    documents.set(urn, { urn, owner: r.owner, status: 'WAITING_UPLOAD' });
    const id = randomBytes(12).toString('hex');
    const sig = s.secret(16);
    s.uploads.set(id, { kind: 'document', urn, sig });
    sendJson(res, 200, { value: { uploadUrlExpiresAt: Date.now() + 86400_000, uploadUrl: `${s.origin}/dms-uploads/${id}?sig=${sig}`, document: urn } });
  }

  /** The bytes of a document upload slot. */
  function receive(res: ServerResponse, slot: UploadSlot, bytes: Buffer) {
    const doc = documents.get(slot.urn)!;
    if (doc.status !== 'WAITING_UPLOAD') return badRequest(res, `Document ${doc.urn} was uploaded already`);
    if (bytes.length > DOCUMENT_MAX_BYTES) return badRequest(res, 'Documents are limited to 100 MB');
    const kind = documentKind(bytes);
    // Bytes that are no document fail LinkedIn's conversion; a post using the document is then refused.
    Object.assign(doc, { size: bytes.length, contentType: kind ?? 'application/octet-stream', status: 'PROCESSING', readyAt: Date.now() + s.processingMs, failProcessing: !kind });
    sendEmpty(res, 201);
  }

  function get(res: ServerResponse, token: TokenRecord, urn: string, version: string) {
    const doc = documents.get(urn);
    if (!doc) return notFound(res, `Document ${urn}`);
    if (!mayActAs(s, token, doc.owner)) return accessDenied(res, 'documents.GET', version);
    const { status, owner } = settle(doc);
    sendJson(res, 200, { id: urn, owner, status, ...(status === 'AVAILABLE' ? { downloadUrl: `${s.origin}/media/${encodeURIComponent(urn)}` } : {}) });
  }

  /** Whether a post's `content.media` may use this document; answers the refusal and returns false. */
  function usable(res: ServerResponse, author: string, id: string, title: unknown): boolean {
    const doc = documents.get(id);
    if (!doc) return invalidField(res, '/content/media/id', `${id} is not an uploaded document`), false;
    if (doc.owner !== author) return invalidField(res, '/content/media/id', `${id} belongs to ${doc.owner}, not the author`), false;
    if (settle(doc).status !== 'AVAILABLE') return invalidField(res, '/content/media/id', `${id} is ${doc.status}, not AVAILABLE`), false;
    if (typeof title !== 'string' || !title.trim()) return invalidField(res, '/content/media/title', 'a document post needs a title'), false;
    return true;
  }

  return { initialize, receive, get, usable };
}
