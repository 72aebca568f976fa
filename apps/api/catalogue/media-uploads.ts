import { z } from 'zod';
import { MEDIA_UPLOAD_TYPES, UPLOAD_CONTENT_TYPES } from '../../../core/domain/media-upload';
import { formBoolean } from '../input';
import { operation, refusedAs } from './types';
import { ok } from './common';

/** Staged media uploads (docs/media-uploads.md): declare, PUT the bytes to a signed URL, complete, use in a post. */

const TYPES = MEDIA_UPLOAD_TYPES.map((t) => `${t}: ${UPLOAD_CONTENT_TYPES[t].join(', ')}`).join('; ');
const State = z.enum(['created', 'uploading', 'completed', 'used', 'expired']);

const MediaUpload = {
  upload_id: z.string(),
  state: State.describe('created (declared), uploading (bytes arriving), completed (stored), used (a post uses it: its bytes outlive the upload), expired.'),
  filename: z.string(),
  content_type: z.string(),
  media_type: z.enum(MEDIA_UPLOAD_TYPES),
  content_length: z.number(),
  received_bytes: z.number().describe('Bytes received so far: where a resumable upload goes on from.'),
  expires_at: z.string().describe('When the upload and its URL expire unless a post uses it.'),
  created_at: z.string(),
  source: z.string().optional(),
  sha256: z.string().optional().describe('Once completed: SHA-256 (hex) of the bytes.'),
  sniffed_type: z.string().optional().describe('Once completed: the type the bytes were recognized as.'),
  media_id: z.string().optional(),
  completed_at: z.string().optional(),
  used_by: z.string().optional().describe('The request_id of the first post that used it.'),
};
const Params = z.object({ upload_id: z.string().describe('The upload_id of createMediaUpload.') });
const Signed = z.object({
  exp: z.string().optional().describe('Part of the upload_url: its expiry.'),
  sig: z.string().optional().describe('Part of the upload_url: its signature.'),
});
const Offset = ok({ upload_id: z.string(), state: State, received_bytes: z.number(), content_length: z.number() });

export const createMediaUpload = operation({
  id: 'createMediaUpload', method: 'post', path: '/svc/media-uploads', tags: ['media uploads'],
  summary: 'Stage a media upload',
  description: `Declares a file to upload before posting it: answers 201 with \`upload_id\` and \`upload_url\`, a signed URL of Herald's own to PUT the bytes to (no API key; it expires with the upload, 24 h by default), then completeMediaUpload, then post it with \`media-upload:<upload_id>\` in \`video\`, \`photos[]\` or \`document\`. Files over \`resumable_above_bytes\` (8 MiB by default) may be sent in \`Content-Range\` chunks and resumed after a lost connection. Types by media_type: ${TYPES}. Errors: 400 naming the field, \`media_too_large\` (content_length over the media size limit), \`media_type_unsupported\` (content_type not of media_type); 429 \`monthly_quota_exceeded\` (the plan's uploads of the month are used up).`,
  auth: 'apiKey',
  body: z.object({
    filename: z.string({ error: 'filename is required: the file\'s name, such as clip.mp4.' }).describe('The file\'s name (printable, no path).'),
    content_type: z.string({ error: 'content_type is required: the file\'s MIME type.' }).describe('The file\'s MIME type, one its media_type takes.'),
    content_length: z.union([z.number(), z.string()], { error: 'content_length is required: the file\'s size in bytes.' }).describe('The file\'s size in bytes (a positive integer, at most the media size limit).'),
    media_type: refusedAs('invalid_request', z.enum(MEDIA_UPLOAD_TYPES, { error: `media_type must be one of ${MEDIA_UPLOAD_TYPES.join(', ')}.` })),
    source: z.string().max(2048, 'source is at most 2048 characters').optional().describe('Where the file comes from (free text, kept with the upload).'),
  }),
  responses: {
    201: {
      description: 'Staged: PUT the bytes to upload_url.',
      schema: ok({
        ...MediaUpload,
        upload_url: z.string().describe('Where to PUT the bytes (signed; no Authorization header needed).'),
        upload_method: z.literal('PUT'),
        resumable: z.boolean().describe('true: the bytes may be sent in Content-Range chunks, and an interrupted PUT keeps what arrived.'),
        resumable_above_bytes: z.number(),
      }),
    },
  },
  errors: { 400: 'A field is missing or wrong (named): media_too_large, media_type_unsupported, invalid_request.', 429: 'monthly_quota_exceeded.' },
  // The MCP server has upload handles of its own (its create_media_upload tool): no tool for the REST form.
  mcp: { exclude: true },
});

export const putMediaUploadBytes = operation({
  id: 'putMediaUploadBytes', method: 'put', path: '/svc/media-uploads/{upload_id}/bytes', tags: ['media uploads'],
  summary: 'Send a staged upload\'s bytes',
  description: 'The upload_url of createMediaUpload: PUT the raw bytes (any Content-Type; the body is streamed to disk, hashed and its type sniffed as it arrives). Without Content-Range the body is the whole file (it replaces what an earlier PUT left). A resumable upload may be sent in chunks: `Content-Range: bytes <start>-<end>/<content_length>`, each starting at `received_bytes` (GET this URL, or getMediaUpload, after a lost connection). The credential is the URL\'s signature: no Authorization header. Errors: 403 `upload_url_invalid` / `upload_url_expired`, 404 `media_upload_not_found`, 400 `upload_length_mismatch` (more or fewer bytes than announced), `media_type_mismatch` (the bytes are not of content_type; nothing kept), 409 `upload_offset_mismatch` (with received_bytes), `upload_in_progress`, `upload_already_completed`.',
  auth: 'none',
  params: Params,
  query: Signed,
  responses: { 200: { description: 'Received; `complete` once every byte is there (then completeMediaUpload).', schema: ok({ upload_id: z.string(), state: z.string(), received_bytes: z.number(), content_length: z.number(), complete: z.boolean() }) } },
  errors: {
    400: 'upload_length_mismatch, media_type_mismatch, or a malformed Content-Range.', 403: 'upload_url_invalid or upload_url_expired.', 404: 'media_upload_not_found.',
    409: 'upload_offset_mismatch (received_bytes says where to go on), upload_in_progress, upload_already_completed.',
  },
  mcp: { exclude: true },
});

export const getMediaUploadOffset = operation({
  id: 'getMediaUploadOffset', method: 'get', path: '/svc/media-uploads/{upload_id}/bytes', tags: ['media uploads'],
  summary: 'Bytes a staged upload holds',
  description: 'GET (or HEAD) on the upload_url: how many bytes arrived (`received_bytes`, also the `Upload-Offset` header), so a client that lost its connection resumes from there. Same signature rules as putMediaUploadBytes.',
  auth: 'none',
  params: Params,
  query: Signed,
  responses: { 200: { description: 'Where the upload stands.', schema: Offset, headers: { 'Upload-Offset': 'received_bytes' } } },
  errors: { 403: 'upload_url_invalid or upload_url_expired.', 404: 'media_upload_not_found.' },
  mcp: { exclude: true },
});

export const completeMediaUpload = operation({
  id: 'completeMediaUpload', method: 'post', path: '/svc/media-uploads/{upload_id}/complete', tags: ['media uploads'],
  summary: 'Complete a staged upload',
  description: 'Checks that every byte arrived and that they are of the declared type, and moves them into the media store: state `completed`, with sha256, sniffed_type and media_id. Completing a completed upload answers it again. Errors: 404 `media_upload_not_found`, 409 `upload_incomplete` (received_bytes), `upload_in_progress`, 400 `media_type_mismatch`, 403 `upload_url_expired`.',
  auth: 'apiKey',
  params: Params,
  responses: { 200: { description: 'Completed.', schema: ok(MediaUpload) } },
  errors: { 400: 'media_type_mismatch.', 403: 'upload_url_expired.', 404: 'media_upload_not_found.', 409: 'upload_incomplete or upload_in_progress.' },
  // The MCP server has upload handles of its own (its create_media_upload tool): no tool for the REST form.
  mcp: { exclude: true },
});

export const getMediaUpload = operation({
  id: 'getMediaUpload', method: 'get', path: '/svc/media-uploads/{upload_id}', tags: ['media uploads'],
  summary: 'Status of a staged upload',
  description: 'State, size, type, received_bytes and (once completed) sha256 of a staged upload. `include_url=true` adds `url`, a temporary signed URL of the stored bytes (completed uploads). Another account\'s upload reads as unknown. Errors: 404 `media_upload_not_found`.',
  auth: 'apiKey',
  params: Params,
  query: z.object({ include_url: formBoolean.describe('true: add `url`, a temporary signed URL of the stored bytes.') }),
  responses: { 200: { description: 'The upload.', schema: ok({ ...MediaUpload, url: z.string().optional() }) } },
  errors: { 404: 'media_upload_not_found.' },
  // The MCP server has upload handles of its own (its create_media_upload tool): no tool for the REST form.
  mcp: { exclude: true },
});

export const deleteMediaUpload = operation({
  id: 'deleteMediaUpload', method: 'delete', path: '/svc/media-uploads/{upload_id}', tags: ['media uploads'],
  summary: 'Delete a staged upload',
  description: 'Removes the upload, its received bytes and its stored bytes unless a post uses them (`media_kept: true`: posts keep theirs). Errors: 404 `media_upload_not_found`, 409 `upload_in_progress`.',
  auth: 'apiKey',
  params: Params,
  responses: { 200: { description: 'Deleted.', schema: ok({ upload_id: z.string(), deleted: z.literal(true), media_kept: z.boolean() }) } },
  errors: { 404: 'media_upload_not_found.', 409: 'upload_in_progress.' },
  // The MCP server has upload handles of its own (its create_media_upload tool): no tool for the REST form.
  mcp: { exclude: true },
});

export const mediaUploadOperations = [createMediaUpload, putMediaUploadBytes, getMediaUploadOffset, completeMediaUpload, getMediaUpload, deleteMediaUpload];
