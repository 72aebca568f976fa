/**
 * Changes to a published YouTube video (developers.google.com/youtube/v3/docs/videos/update,
 * videos/delete, thumbnails/set). videos.update replaces every mutable property of the parts it is
 * sent: the video is read first (videos.list part=snippet,status) and the request carries the whole
 * snippet (title and categoryId are required) and, when status changes, the whole status, with the
 * changed fields replaced. `publishAt` needs `privacyStatus: private` (YouTube's rule, checked here).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext, PostEditor } from '../../../core/ports/platform';
import { collectAll, exchangeJson, isObject, str, type Json } from '../kit/http';
import type { YoutubeClient } from './client';
import { DESCRIPTION_MAX_BYTES, hasAngleBrackets, THUMBNAIL_MAX_BYTES, THUMBNAIL_TYPES, TITLE_MAX_CHARS } from './settings';

const VIDEO_ID = /^[A-Za-z0-9_-]{6,20}$/;
/** Snippet properties videos.update keeps only when sent back. */
const SNIPPET_KEYS = ['title', 'description', 'tags', 'categoryId', 'defaultLanguage', 'defaultAudioLanguage'];
const STATUS_KEYS = ['privacyStatus', 'publishAt', 'embeddable', 'license', 'publicStatsViewable', 'selfDeclaredMadeForKids', 'containsSyntheticMedia'];

const invalid = (code: string, message: string) => new PlatformError('youtube', { kind: 'invalid_content', code }, message);
const pick = (from: Json, keys: string[]) => Object.fromEntries(keys.filter((k) => from[k] !== undefined).map((k) => [k, from[k]]));

/**
 * YouTube answers `forbidden` (403) on another channel's video; on a publish that reason pauses the
 * channel (mapYoutubeFailure), but on a post operation it is a refusal of this video only.
 */
function notOwner(err: unknown, id: string): unknown {
  if (err instanceof PlatformError && err.upstream.code === 'forbidden') {
    return new PlatformError('youtube', { kind: 'rejected', code: 'not_owner' }, `Video ${id} belongs to another channel: only the channel's own videos can be changed.`, err.upstream);
  }
  return err;
}

export function createYoutubePostEditor(client: YoutubeClient): PostEditor {
  const videoId = (id: string) => {
    if (!VIDEO_ID.test(id)) throw invalid('invalid_post_id', 'A YouTube post id is the video id (the v= part of its URL).');
    return id;
  };
  async function current(ctx: CallContext, token: string, id: string): Promise<Json> {
    const list = await client.api(token, 'GET', `/youtube/v3/videos?part=snippet,status&id=${encodeURIComponent(id)}`, undefined, ctx.signal);
    const item = Array.isArray(list.items) ? list.items.find((v) => isObject(v) && v.id === id) : undefined;
    if (!isObject(item)) throw new PlatformError('youtube', { kind: 'rejected', code: 'not_found' }, `YouTube has no video ${id} on this channel (deleted, or another channel's).`);
    return item;
  }
  return {
    async edit(ctx, post, changes) {
      const id = videoId(post.id);
      const settings = changes.settings ?? {};
      const token = client.tokenOf(ctx);
      const updated: string[] = [];
      const snippetChanges: Json = {};
      const statusChanges: Json = {};
      if (changes.title !== undefined) {
        if (!changes.title.trim()) throw invalid('title_empty', 'A YouTube title cannot be empty.');
        if ([...changes.title].length > TITLE_MAX_CHARS) throw invalid('text_too_long', `A YouTube title is limited to ${TITLE_MAX_CHARS} characters.`);
        if (hasAngleBrackets(changes.title)) throw invalid('invalid_title', 'YouTube titles cannot contain < or >.');
        snippetChanges.title = changes.title; updated.push('title');
      }
      const description = typeof settings.description === 'string' ? settings.description : changes.text;
      if (description !== undefined) {
        if (Buffer.byteLength(description) > DESCRIPTION_MAX_BYTES) throw invalid('text_too_long', `A YouTube description is limited to ${DESCRIPTION_MAX_BYTES} bytes.`);
        if (hasAngleBrackets(description)) throw invalid('invalid_description', 'YouTube descriptions cannot contain < or >.');
        snippetChanges.description = description; updated.push('description');
      }
      if (Array.isArray(settings.tags)) { snippetChanges.tags = settings.tags; updated.push('tags'); }
      if (typeof settings.categoryId === 'string') { snippetChanges.categoryId = settings.categoryId; updated.push('categoryId'); }
      if (typeof settings.privacyStatus === 'string') { statusChanges.privacyStatus = settings.privacyStatus; updated.push('privacyStatus'); }
      if (typeof settings.publishAt === 'string') { statusChanges.publishAt = settings.publishAt; updated.push('publishAt'); }
      if (!updated.length) throw invalid('nothing_to_update', 'Nothing to update: send title, description, tags, privacyStatus, categoryId or publishAt.');

      const video = await current(ctx, token, id);
      const owner = isObject(video.snippet) ? str(video.snippet.channelId) : undefined;
      if (owner && ctx.credentials.channel_id && owner !== ctx.credentials.channel_id) throw notOwner(new PlatformError('youtube', { kind: 'rejected' }, '', { code: 'forbidden' }), id);
      const snippet = { ...pick(isObject(video.snippet) ? video.snippet : {}, SNIPPET_KEYS), ...snippetChanges };
      const parts = ['snippet'];
      const resource: Json = { id, snippet };
      if (Object.keys(statusChanges).length) {
        const status = { ...pick(isObject(video.status) ? video.status : {}, STATUS_KEYS), ...statusChanges };
        if (status.publishAt !== undefined && status.privacyStatus !== 'private') {
          throw invalid('invalid_publish_at', 'publishAt schedules a private video to go public: send privacyStatus private with it (or make the video private first).');
        }
        if (statusChanges.privacyStatus !== undefined && statusChanges.privacyStatus !== 'private' && statusChanges.publishAt === undefined) delete status.publishAt;
        resource.status = status;
        parts.push('status');
      }
      await client.api(token, 'PUT', `/youtube/v3/videos?part=${parts.join(',')}`, resource, ctx.signal).catch((err: unknown) => { throw notOwner(err, id); });
      return { id, url: post.url ?? `https://www.youtube.com/watch?v=${id}`, updated, ...(post.extra ? { extra: post.extra } : {}) };
    },
    async unpublish(ctx, post) {
      const id = videoId(post.id);
      await client.api(client.tokenOf(ctx), 'DELETE', `/youtube/v3/videos?id=${encodeURIComponent(id)}`, undefined, ctx.signal).catch((err: unknown) => { throw notOwner(err, id); });
    },
    async setThumbnail(ctx, post, image) {
      const id = videoId(post.id);
      if (!THUMBNAIL_TYPES.includes(image.contentType)) throw invalid('media_type_unsupported', `A YouTube thumbnail is a JPG, PNG, GIF or BMP image; this one is ${image.contentType || 'of no known type'}.`);
      if (image.size > THUMBNAIL_MAX_BYTES) throw invalid('media_too_large', 'A YouTube thumbnail is at most 2 MB.');
      const bytes = await collectAll(image.bytes());
      // thumbnails.set names image/jpeg and image/png; GIF and BMP go as octet-stream.
      const contentType = image.contentType === 'image/jpeg' || image.contentType === 'image/png' ? image.contentType : 'application/octet-stream';
      const outcome = await exchangeJson(`${client.apiBase}/upload/youtube/v3/thumbnails/set?videoId=${encodeURIComponent(id)}&uploadType=media`, {
        method: 'POST', headers: { authorization: `Bearer ${client.tokenOf(ctx)}`, 'content-type': contentType }, body: bytes,
      }, { fetch: client.fetch, timeoutMs: client.uploadTimeoutMs, signal: ctx.signal });
      if (outcome.kind === 'no_response' || outcome.status !== 200) throw notOwner(client.failure(outcome, client.uploadTimeoutMs), id);
      const items = isObject(outcome.body) && Array.isArray(outcome.body.items) ? outcome.body.items : [];
      const first = isObject(items[0]) ? items[0] : {};
      const best = ['maxres', 'high', 'medium', 'default'].map((k) => (isObject(first[k]) ? str(first[k].url) : undefined)).find(Boolean);
      return best ? { url: best } : {};
    },
  };
}
