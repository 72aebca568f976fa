/**
 * Published-video operations of the YouTube simulator (youtube/v3/docs/videos/update, videos/delete):
 * `PUT /youtube/v3/videos?part=…` replaces every mutable property of the parts named (a snippet
 * needs its title and categoryId; `status.publishAt` only on a private video), and
 * `DELETE /youtube/v3/videos?id=` (204). Only the channel's own videos.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import type { SimChannel, SimVideo } from './types';
import { apiError, ASSIGNABLE_CATEGORIES, tagsLength } from './wire';

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {});
const SNIPPET_KEYS = ['title', 'description', 'tags', 'categoryId', 'defaultLanguage', 'defaultAudioLanguage'];
const STATUS_KEYS = ['privacyStatus', 'publishAt', 'embeddable', 'license', 'publicStatsViewable', 'selfDeclaredMadeForKids', 'containsSyntheticMedia'];

export interface YoutubePostsState {
  videos: Map<string, SimVideo>;
  /** The video as videos.list returns it. */
  videoResource(v: SimVideo, parts: string[]): Record<string, unknown>;
}

export function createYoutubePosts(s: YoutubePostsState) {
  function owned(res: ServerResponse, channel: SimChannel, id: unknown, domain: string): SimVideo | undefined {
    const video = typeof id === 'string' ? s.videos.get(id) : undefined;
    if (!video) return apiError(res, 404, 'videoNotFound', 'The video that you are trying to update cannot be found.', domain), undefined;
    if (video.channelId !== channel.id) return apiError(res, 403, 'forbidden', 'The video that you are trying to update belongs to another channel.', domain), undefined;
    return video;
  }

  function updateVideo(req: SimRequest, res: ServerResponse, channel: SimChannel) {
    const parts = (req.query.part ?? '').split(',').map((p) => p.trim()).filter(Boolean);
    if (!parts.length) return apiError(res, 400, 'required', 'Required parameter: part', 'global');
    const unknownPart = parts.find((p) => !['snippet', 'status'].includes(p));
    if (unknownPart) return apiError(res, 400, 'unexpectedPart', `The request specifies an unexpected value for the part parameter: ${unknownPart}.`, 'youtube.part');
    if (req.body.kind !== 'json') return apiError(res, 400, 'parseError', 'The request body is not JSON.', 'global');
    const body = obj(req.body.value);
    const video = owned(res, channel, body.id, 'youtube.video');
    if (!video) return;
    const bad = (reason: string, message: string) => apiError(res, 400, reason, message, 'youtube.video');
    let snippet = obj(video.resource.snippet);
    let status = obj(video.resource.status);
    if (parts.includes('snippet')) {
      const sent = obj(body.snippet);
      if (typeof sent.title !== 'string' || !sent.title.trim()) return bad('invalidTitle', 'The request metadata does not specify a valid video title.');
      if ([...sent.title].length > 100 || /[<>]/.test(sent.title)) return bad('invalidTitle', 'The request metadata specifies an invalid video title.');
      if (sent.categoryId === undefined) return bad('invalidCategoryId', 'The snippet.categoryId property must be specified when updating the snippet.');
      if (!ASSIGNABLE_CATEGORIES.includes(String(sent.categoryId))) return bad('invalidCategoryId', 'The snippet.categoryId property specifies an invalid category ID.');
      if (sent.description !== undefined && (typeof sent.description !== 'string' || Buffer.byteLength(sent.description) > 5000 || /[<>]/.test(sent.description))) {
        return bad('invalidDescription', 'The request metadata specifies an invalid video description.');
      }
      if (sent.tags !== undefined && (!Array.isArray(sent.tags) || sent.tags.some((t) => typeof t !== 'string') || tagsLength(sent.tags as string[]) > 500)) {
        return bad('invalidTags', 'The request metadata specifies invalid video keywords.');
      }
      // update replaces the part: what is not sent is removed (YouTube's documented behaviour).
      snippet = Object.fromEntries(SNIPPET_KEYS.filter((k) => sent[k] !== undefined).map((k) => [k, sent[k]]));
    }
    if (parts.includes('status')) {
      const sent = obj(body.status);
      if (sent.privacyStatus !== undefined && !['public', 'unlisted', 'private'].includes(String(sent.privacyStatus))) {
        return bad('invalidPrivacyStatus', 'The request metadata specifies an invalid privacy status.');
      }
      if (sent.publishAt !== undefined) {
        if (sent.privacyStatus !== 'private') return bad('invalidPublishAt', 'The request metadata specifies an invalid scheduled publishing time: the video must be private.');
        const at = Date.parse(String(sent.publishAt));
        if (!Number.isFinite(at) || at <= Date.now()) return bad('invalidPublishAt', 'The request metadata specifies an invalid scheduled publishing time.');
      }
      status = Object.fromEntries(STATUS_KEYS.filter((k) => sent[k] !== undefined).map((k) => [k, sent[k]]));
    }
    video.resource = { ...video.resource, snippet, status };
    video.updatedAt = new Date();
    sendJson(res, 200, s.videoResource(video, parts));
  }

  function deleteVideo(req: SimRequest, res: ServerResponse, channel: SimChannel) {
    const video = owned(res, channel, req.query.id, 'youtube.video');
    if (!video) return;
    s.videos.delete(video.id);
    res.writeHead(204, { 'content-length': 0 });
    res.end();
  }

  return { updateVideo, deleteVideo };
}
