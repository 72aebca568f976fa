/**
 * Media for LinkedIn posts (Images API, Videos API): uploaded before the post that uses them. Bytes
 * go one upload at a time: LinkedIn's upload URLs are short-lived and a failure should stop early.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { PublishContext, PublishPost } from '../../../core/ports/platform';
import { callDeadline, collectAll, isObject, type Json } from '../kit/http';
import type { LinkedInClient } from './client';

const THUMBNAIL_MAX_BYTES = 10 * 1024 * 1024;
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png'];

/** The author and token a post's media are uploaded for; warnings collect what was let go. */
export interface MediaOwner { token: string; author: string; warnings: string[] }

export interface LinkedInMedia {
  uploadImage(ctx: PublishContext, owner: MediaOwner, image: MediaRef): Promise<string>;
  /** initializeUpload → PUT every part (keeping ETags) → thumbnail → finalizeUpload. */
  uploadVideo(ctx: PublishContext, post: PublishPost, owner: MediaOwner): Promise<{ video: string; thumbnailError?: string }>;
}

export function createLinkedInMedia(client: LinkedInClient): LinkedInMedia {
  const readAll = (ctx: PublishContext, id: string, range?: { start: number; end: number }) => collectAll(ctx.media.read(id, range));

  async function uploadImage(ctx: PublishContext, owner: MediaOwner, image: MediaRef): Promise<string> {
    const init = await client.rest('POST', '/images?action=initializeUpload', owner.token, { initializeUploadRequest: { owner: owner.author } }, ctx.signal);
    const value = isObject(init.body) && isObject(init.body.value) ? init.body.value : {};
    if (typeof value.uploadUrl !== 'string' || typeof value.image !== 'string') throw client.malformed(init.status, 'an image upload URL');
    await client.putBytes(value.uploadUrl, owner.token, await readAll(ctx, image.id), image.contentType, ctx.signal);
    return value.image;
  }

  /** Herald fetches thumbnail_url itself (LinkedIn only takes bytes), with the same timeout as API calls. */
  async function fetchThumbnail(url: string, signal?: AbortSignal): Promise<{ bytes: Buffer; contentType: string } | { error: string }> {
    const deadline = callDeadline(client.timeoutMs, signal);
    try {
      const res = await client.fetch(url, { signal: deadline.signal });
      if (!res.ok) {
        await res.body?.cancel();
        return { error: `thumbnail_url answered HTTP ${res.status}` };
      }
      if (Number(res.headers.get('content-length') ?? 0) > THUMBNAIL_MAX_BYTES) {
        await res.body?.cancel();
        return { error: 'the thumbnail is over 10 MB' };
      }
      const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      return { bytes: Buffer.from(await res.arrayBuffer()), contentType };
    } catch {
      return { error: deadline.timedOut ? `thumbnail_url did not answer within ${client.timeoutMs} ms` : 'thumbnail_url could not be fetched' };
    } finally {
      deadline.done();
    }
  }

  /** The thumbnail bytes, or why there are none; never fails the post (the spec makes it best effort). */
  async function thumbnailOf(ctx: PublishContext, post: PublishPost, owner: MediaOwner): Promise<{ bytes?: Buffer; contentType?: string; error?: string }> {
    const file = isObject(post.settings.thumbnail) ? (post.settings.thumbnail as unknown as MediaRef) : undefined;
    const url = typeof post.settings.thumbnail_url === 'string' ? post.settings.thumbnail_url : undefined;
    if (file && url) owner.warnings.push('thumbnail_url was ignored: the thumbnail file wins.');
    const accept = (contentType: string, size: number): string | undefined =>
      !THUMBNAIL_TYPES.includes(contentType) ? `the thumbnail must be JPG or PNG, not ${contentType || 'an unknown type'}`
        : size > THUMBNAIL_MAX_BYTES ? `the thumbnail is over 10 MB (${size} bytes)` : undefined;
    if (file) {
      const error = accept(file.contentType, file.size);
      return error ? { error } : { bytes: await readAll(ctx, file.id), contentType: file.contentType };
    }
    if (!url) return {};
    const fetched = await fetchThumbnail(url, ctx.signal);
    if ('error' in fetched) return fetched;
    const error = accept(fetched.contentType, fetched.bytes.length);
    return error ? { error } : fetched;
  }

  async function uploadVideo(ctx: PublishContext, post: PublishPost, owner: MediaOwner): Promise<{ video: string; thumbnailError?: string }> {
    const video = post.media[0]!;
    const thumb = await thumbnailOf(ctx, post, owner);
    const init = await client.rest('POST', '/videos?action=initializeUpload', owner.token, {
      initializeUploadRequest: { owner: owner.author, fileSizeBytes: video.size, uploadCaptions: false, uploadThumbnail: Boolean(thumb.bytes) },
    }, ctx.signal);
    const value = isObject(init.body) && isObject(init.body.value) ? init.body.value : {};
    const instructions = Array.isArray(value.uploadInstructions) ? value.uploadInstructions : [];
    const parts = instructions.filter((i): i is Json & { uploadUrl: string; firstByte: number; lastByte: number } =>
      isObject(i) && typeof i.uploadUrl === 'string' && Number.isInteger(i.firstByte) && Number.isInteger(i.lastByte));
    if (typeof value.video !== 'string' || !parts.length || parts.length !== instructions.length) throw client.malformed(init.status, 'video upload instructions');
    const urn = value.video;

    const etags: string[] = [];
    for (const part of parts) {
      const bytes = await readAll(ctx, video.id, { start: part.firstByte, end: part.lastByte + 1 });
      const put = await client.putBytes(part.uploadUrl, owner.token, bytes, 'application/octet-stream', ctx.signal);
      const etag = put.headers.get('etag');
      if (!etag) throw client.malformed(put.status, 'the ETag of an uploaded part');
      etags.push(etag);
    }

    let thumbnailError = thumb.error;
    if (thumb.bytes && typeof value.thumbnailUploadUrl === 'string') {
      try {
        await client.putBytes(value.thumbnailUploadUrl, owner.token, thumb.bytes, thumb.contentType!, ctx.signal);
      } catch (err) {
        if (!(err instanceof PlatformError)) throw err;
        thumbnailError = `LinkedIn refused the thumbnail: ${err.message}`;
      }
    } else if (thumb.bytes) {
      thumbnailError = 'LinkedIn gave no thumbnail upload URL';
    }

    await client.rest('POST', '/videos?action=finalizeUpload', owner.token, {
      finalizeUploadRequest: { video: urn, uploadToken: typeof value.uploadToken === 'string' ? value.uploadToken : '', uploadedPartIds: etags },
    }, ctx.signal);
    return { video: urn, ...(thumbnailError ? { thumbnailError } : {}) };
  }

  return { uploadImage, uploadVideo };
}
