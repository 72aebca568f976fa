import { mkdir } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { Context, Middleware, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { STORE_DIR_MODE } from '../../adapters/media/local-store';
import { HeraldError, invalidInput } from '../../core/domain/errors';
import { HttpEdgeError } from './http-errors';

export interface BodyLimits {
  /** JSON and urlencoded bodies. */
  formBytes: number;
  /** One uploaded file (streamed to a temporary file). */
  fileBytes: number;
  /**
   * Where uploaded files are streamed to (the OS temporary directory by default): the media
   * store's own staging directory, so a file is moved into the store by renaming, not copied.
   */
  uploadDir?: string;
}

/**
 * Why a body could not be read, and the form fields surely read before it failed. Kept per
 * request and answered when the route asks for the body, so a route can look at what it must
 * check first (reddit in `platform[]`) before an unreadable body answers.
 */
interface Unread {
  error: HeraldError | HttpEdgeError;
  fields: Record<string, unknown>;
}
const unread = new WeakMap<Context, Unread>();

/** What koa-body reads: JSON (also `+json` types), urlencoded and multipart forms. */
const READ_TYPES = ['json', '+json', 'urlencoded', 'multipart'];

const mb = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`);

/** A failure of reading the body as the caller's fault with its status, or null for a fault of ours. */
function bodyError(raw: unknown, ctx: Context, limits: BodyLimits): HeraldError | HttpEdgeError | null {
  const err = raw as { status?: unknown; httpCode?: unknown; code?: unknown; type?: unknown; message?: string };
  // formidable: numeric internal codes 1000+ and an httpCode (500 for some of the caller's faults too).
  if (typeof err.code === 'number' && typeof err.httpCode === 'number') {
    switch (err.code) {
      case 1016: case 1009: return new HttpEdgeError(413, `A file is larger than the upload limit of ${mb(limits.fileBytes)}.`, 'file_too_large', { limit_bytes: limits.fileBytes });
      case 1006: case 1007: case 1015: return new HttpEdgeError(413, `Too many or too large form fields: ${err.message}.`, 'body_too_large');
      case 1003: case 1011: return new HttpEdgeError(415, `The multipart body has no usable Content-Type: ${err.message}.`, 'unsupported_media_type');
      case 1010: return invalidInput('A file of the form is empty: send the file\'s bytes, or leave the field out.', undefined, 'invalid_body');
      case 1012: return invalidInput('The multipart body ended before its closing boundary (truncated or malformed): send the whole body.', undefined, 'invalid_body');
      case 1018: return null; // our temporary directory
      default: return invalidInput(`The multipart body cannot be read: ${err.message}.`, undefined, 'invalid_body');
    }
  }
  // co-body / raw-body / inflation: http-errors with a status and a type.
  if (err.status === 413) return new HttpEdgeError(413, `The request body is larger than ${mb(limits.formBytes)}.`, 'body_too_large', { limit_bytes: limits.formBytes });
  if (err.status === 415) return new HttpEdgeError(415, `The body's encoding cannot be read: ${err.message}. Send UTF-8 without Content-Encoding, or gzip, deflate or br.`, 'unsupported_media_type');
  if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
    return invalidInput(`The request body cannot be read: ${err.message}.`, undefined, 'invalid_body');
  }
  // zlib, for a Content-Encoding whose bytes are not what they claim (koa-body may have rewrapped its error).
  const encoded = ![undefined, '', 'identity'].includes(ctx.get('Content-Encoding').toLowerCase());
  if ((typeof err.code === 'string' && err.code.startsWith('Z_')) || encoded) {
    return invalidInput(`The request body cannot be decompressed: ${err.message}.`, undefined, 'invalid_body');
  }
  return null;
}

/**
 * Reads JSON, urlencoded and multipart bodies (files streamed to temporary files by formidable).
 * A body that cannot be read is not answered here: `bodyFields` answers it when the route reads
 * the body. Multipart form fields are collected as they stream: when a file or the fields then
 * pass a size limit, the fields before it are known for certain (the parser hands parts over in
 * order) and stay readable. A truncated or malformed body keeps none: the parts parsed just before
 * its end may or may not have been handed over when it fails, and an answer must not depend on
 * how the bytes happened to arrive.
 */
export function bodyReader(limits: BodyLimits): Middleware {
  const base = {
    multipart: true, urlencoded: true, json: true, jsonTypes: ['json', '+json'], text: false, jsonLimit: limits.formBytes, formLimit: limits.formBytes,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  };
  // Each file is hashed as it is written (its content address in the media store): the store
  // then takes the file as it is, without reading it again.
  const formidable = {
    maxFileSize: limits.fileBytes, maxTotalFileSize: limits.fileBytes * 2, keepExtensions: true, hashAlgorithm: 'sha256',
    ...(limits.uploadDir ? { uploadDir: limits.uploadDir } : {}),
  };
  const defer = (fieldsSoFar: () => Record<string, unknown>) => (raw: Error, ctx: Context) => {
    const error = bodyError(raw, ctx, limits);
    if (!error) throw raw;
    const overLimit = error instanceof HttpEdgeError && error.status === 413;
    unread.set(ctx, { error, fields: overLimit ? fieldsSoFar() : {} });
  };
  const plain = koaBody({ ...base, onError: defer(() => ({})) });

  return async (ctx: Context, next: Next) => {
    if (!ctx.request.is('multipart')) {
      // `is` is false (not null) only for a request that has a body.
      if (ctx.request.is(READ_TYPES) === false && base.parsedMethods.includes(ctx.method as HttpMethodEnum)) {
        const type = ctx.request.type;
        const error = new HttpEdgeError(415, `Send the body as application/json, application/x-www-form-urlencoded or multipart/form-data (${type ? `got ${type}` : 'no Content-Type'}).`, 'unsupported_media_type');
        unread.set(ctx, { error, fields: {} });
        return next();
      }
      return plain(ctx, next);
    }
    // Owner-only, as the media store it belongs to: formidable's files inherit its privacy.
    if (limits.uploadDir) await mkdir(limits.uploadDir, { recursive: true, mode: STORE_DIR_MODE });
    // Form fields as they stream in: formidable keeps them only for a body it read to the end.
    const seen = new Map<string, string[]>();
    const multipart = koaBody({
      ...base,
      formidable: {
        ...formidable,
        onPart(part: FormPart, handle: (part: FormPart) => void) {
          if (!part.mimetype && part.name) {
            const decoder = new StringDecoder('utf8');
            let value = '';
            part.on('data', (b: Buffer) => { value += decoder.write(b); });
            part.on('end', () => {
              const values = seen.get(part.name!) ?? [];
              values.push(value + decoder.end());
              seen.set(part.name!, values);
            });
          }
          handle(part);
        },
      } as Record<string, unknown>,
      onError: defer(() => Object.fromEntries([...seen].map(([k, v]) => [k, v.length === 1 ? v[0] : v]))),
    });
    return multipart(ctx, next);
  };
}

interface FormPart {
  name: string | null;
  mimetype: string | null;
  on(event: 'data', listener: (b: Buffer) => void): void;
  on(event: 'end', listener: () => void): void;
}

/** Body fields of a JSON, urlencoded or multipart request, as one flat object; an unreadable body answers here. */
export function readBody(ctx: Context): Record<string, unknown> {
  const failed = unread.get(ctx);
  if (failed) throw failed.error;
  const body = (ctx.request as unknown as { body?: unknown }).body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** The form fields that could be read, also from a body that then failed; never answers an error. */
export function fieldsReadSoFar(ctx: Context): Record<string, unknown> {
  const failed = unread.get(ctx);
  if (failed) return failed.fields;
  const body = (ctx.request as unknown as { body?: unknown }).body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
