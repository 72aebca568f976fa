/**
 * Comments on the YouTube simulator (developers.google.com/youtube/v3/docs/commentThreads, comments):
 * commentThreads.list (videoId, moderationStatus, maxResults 1–100, pageToken) and .insert;
 * comments.list (parentId or id), .insert (a reply: snippet.parentId), .delete, and
 * .setModerationStatus (published, heldForReview, rejected; banAuthor with rejected). All need the
 * youtube.force-ssl scope; moderation is the video owner's only (403 forbidden); a comment is
 * deleted by its author or the video's owner. Rejected comments leave every listing.
 */
import type { ServerResponse } from 'node:http';
import { sendEmpty, sendJson, type SimRequest } from '../kit/http';
import { pageOf, type SimComment, type SimCommentStore } from '../kit/comments';
import type { SimChannel, SimVideo } from './types';
import { apiError } from './wire';

export interface YoutubeCommentDeps {
  store: SimCommentStore;
  videos: Map<string, SimVideo>;
  /** Authors banned per channel (setModerationStatus banAuthor). */
  banned: Map<string, Set<string>>;
  newId(kind: string, length: number): string;
}

const MODERATION: Record<string, SimComment['moderation']> = { published: 'published', heldForReview: 'held', rejected: 'rejected' };
const WIRE_STATUS: Record<SimComment['moderation'], string> = { published: 'published', held: 'heldForReview', rejected: 'rejected', pending: 'heldForReview', ignored: 'rejected' };

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const obj = (v: unknown): Record<string, any> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, any> : {});
const jsonOf = (req: SimRequest) => (req.body.kind === 'json' ? obj(req.body.value) : {});

function commentResource(d: YoutubeCommentDeps, c: SimComment, ownerChannel: string, viewer: SimChannel): Record<string, unknown> {
  return {
    kind: 'youtube#comment', etag: d.newId('etag', 27), id: c.id,
    snippet: {
      channelId: ownerChannel, videoId: c.postId, textDisplay: escapeHtml(c.text), textOriginal: c.text,
      ...(c.parentId ? { parentId: c.parentId } : {}),
      authorDisplayName: c.authorName, authorChannelId: { value: c.authorId }, authorChannelUrl: `http://www.youtube.com/${c.authorName}`,
      canRate: true, viewerRating: c.likedBy.includes(viewer.id) ? 'like' : 'none', likeCount: c.likedBy.length,
      publishedAt: c.createdAt.toISOString(), updatedAt: (c.editedAt ?? c.createdAt).toISOString(),
      // Only the video owner sees the moderation status.
      ...(ownerChannel === viewer.id ? { moderationStatus: WIRE_STATUS[c.moderation] } : {}),
    },
  };
}

function threadResource(d: YoutubeCommentDeps, c: SimComment, owner: string, viewer: SimChannel, parts: string[]): Record<string, unknown> {
  const replies = d.store.list(c.postId, { parentId: c.id }).filter((r) => r.moderation === 'published');
  return {
    kind: 'youtube#commentThread', etag: d.newId('etag', 27), id: c.id,
    snippet: { channelId: owner, videoId: c.postId, topLevelComment: commentResource(d, c, owner, viewer), canReply: true, totalReplyCount: replies.length, isPublic: true },
    ...(parts.includes('replies') && replies.length ? { replies: { comments: replies.map((r) => commentResource(d, r, owner, viewer)) } } : {}),
  };
}

function pageAnswer(res: ServerResponse, kind: string, items: unknown[], next: string | undefined, perPage: number): void {
  sendJson(res, 200, { kind, etag: 'etag', ...(next ? { nextPageToken: next } : {}), pageInfo: { totalResults: items.length, resultsPerPage: perPage }, items });
}

function maxResultsOf(res: ServerResponse, raw: string | undefined, domain: string): number | undefined {
  const n = raw === undefined ? 20 : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100) { apiError(res, 400, 'invalidParameter', 'maxResults must be from 1 to 100.', domain); return undefined; }
  return n;
}

/** Answers `key` (`METHOD path`) when it is a comment route; false otherwise. `channel` is the authorized caller. */
export function youtubeCommentRoute(d: YoutubeCommentDeps, key: string, req: SimRequest, res: ServerResponse, channel: SimChannel): boolean {
  const q = req.query;
  switch (key) {
    case 'GET /youtube/v3/commentThreads': {
      const parts = (q.part ?? '').split(',').filter(Boolean);
      if (!parts.length) { apiError(res, 400, 'required', 'Required parameter: part', 'global'); return true; }
      const video = d.videos.get(q.videoId ?? '');
      if (!video) { apiError(res, 404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.commentThread'); return true; }
      const status = q.moderationStatus ?? 'published';
      if (!['published', 'heldForReview', 'likelySpam'].includes(status)) { apiError(res, 400, 'invalidParameter', 'moderationStatus is invalid.', 'youtube.parameter'); return true; }
      if (status !== 'published' && video.channelId !== channel.id) { apiError(res, 403, 'forbidden', 'Only the video owner can list comments by moderation status.', 'youtube.commentThread'); return true; }
      const max = maxResultsOf(res, q.maxResults, 'youtube.commentThread');
      if (max === undefined) return true;
      const wanted = status === 'published' ? 'published' : 'held';
      const threads = d.store.list(video.id).filter((c) => c.moderation === wanted).reverse();
      const page = pageOf(threads, q.pageToken, max);
      if (!page) { apiError(res, 400, 'invalidPageToken', 'The pageToken parameter is invalid.', 'youtube.parameter'); return true; }
      pageAnswer(res, 'youtube#commentThreadListResponse', page.items.map((c) => threadResource(d, c, video.channelId, channel, parts)), page.next, max);
      return true;
    }
    case 'GET /youtube/v3/comments': {
      if (!q.parentId === !q.id) { apiError(res, 400, 'incompatibleParameters', 'Send either id or parentId.', 'youtube.parameter'); return true; }
      const max = maxResultsOf(res, q.maxResults, 'youtube.comment');
      if (max === undefined) return true;
      const items = q.id ? q.id.split(',').map((i) => d.store.get(i)).filter((c): c is SimComment => !!c)
        : (() => { const parent = d.store.get(q.parentId!); return parent ? d.store.list(parent.postId, { parentId: parent.id }).filter((c) => c.moderation === 'published') : []; })();
      const page = pageOf(items, q.pageToken, max);
      if (!page) { apiError(res, 400, 'invalidPageToken', 'The pageToken parameter is invalid.', 'youtube.parameter'); return true; }
      pageAnswer(res, 'youtube#commentListResponse', page.items.map((c) => commentResource(d, c, d.videos.get(c.postId)?.channelId ?? '', channel)), page.next, max);
      return true;
    }
    case 'POST /youtube/v3/comments': {
      const snippet = obj(jsonOf(req).snippet);
      const parent = d.store.get(String(snippet.parentId ?? ''));
      if (!parent) { apiError(res, 404, 'parentCommentNotFound', 'The specified parent comment could not be found.', 'youtube.comment'); return true; }
      if (parent.parentId) { apiError(res, 400, 'operationNotSupported', 'Replies can only be made to top-level comments.', 'youtube.comment'); return true; }
      const text = snippet.textOriginal;
      if (typeof text !== 'string' || !text.trim()) { apiError(res, 400, 'commentTextRequired', 'The comment resource must contain the snippet.textOriginal property.', 'youtube.comment'); return true; }
      if ([...text].length > 10_000) { apiError(res, 400, 'commentTextTooLong', 'The comment text is too long.', 'youtube.comment'); return true; }
      const c = d.store.add({ id: `${parent.id}.${d.newId('reply', 22)}`, postId: parent.postId, parentId: parent.id, text, authorId: channel.id, authorName: channel.handle });
      sendJson(res, 200, commentResource(d, c, d.videos.get(parent.postId)?.channelId ?? '', channel));
      return true;
    }
    case 'DELETE /youtube/v3/comments': {
      const c = d.store.get(q.id ?? '');
      if (!c) { apiError(res, 404, 'commentNotFound', 'The comment could not be found.', 'youtube.comment'); return true; }
      if (c.authorId !== channel.id && d.videos.get(c.postId)?.channelId !== channel.id) {
        apiError(res, 403, 'forbidden', 'The comment could not be deleted: the caller is neither its author nor the video owner.', 'youtube.comment');
        return true;
      }
      d.store.remove(c.id);
      sendEmpty(res, 204);
      return true;
    }
    case 'POST /youtube/v3/comments/setModerationStatus': {
      const status = MODERATION[q.moderationStatus ?? ''];
      if (!status) { apiError(res, 400, 'invalidModerationStatus', 'moderationStatus must be heldForReview, published or rejected.', 'youtube.comment'); return true; }
      const ban = q.banAuthor === 'true';
      if (ban && status !== 'rejected') { apiError(res, 400, 'banWithoutReject', 'banAuthor can only be used with rejected.', 'youtube.comment'); return true; }
      const ids = (q.id ?? '').split(',').filter(Boolean);
      const found = ids.map((i) => d.store.get(i));
      if (!ids.length || found.some((c) => !c)) { apiError(res, 404, 'commentNotFound', 'One or more comments could not be found.', 'youtube.comment'); return true; }
      for (const c of found as SimComment[]) {
        if (d.videos.get(c.postId)?.channelId !== channel.id) {
          apiError(res, 403, 'forbidden', 'The comment could not be moderated: only the owner of the video can moderate its comments.', 'youtube.comment');
          return true;
        }
        if (c.authorId === channel.id && status !== 'published') {
          apiError(res, 400, 'processingFailure', "The channel's own comments cannot be held or rejected.", 'youtube.comment');
          return true;
        }
      }
      for (const c of found as SimComment[]) {
        c.moderation = status;
        if (ban) {
          const set = d.banned.get(channel.id) ?? new Set<string>();
          set.add(c.authorId);
          d.banned.set(channel.id, set);
        }
      }
      sendEmpty(res, 204);
      return true;
    }
    default:
      return false;
  }
}

/** commentThreads.insert: a top-level comment (the first comment included). */
export function insertCommentThread(d: YoutubeCommentDeps, req: SimRequest, res: ServerResponse, channel: SimChannel): void {
  const snippet = obj(jsonOf(req).snippet);
  const text = obj(obj(snippet.topLevelComment).snippet).textOriginal;
  const video = d.videos.get(String(snippet.videoId ?? ''));
  if (!video) return apiError(res, 404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.commentThread');
  // Videos made for kids have comments turned off.
  if (obj(video.resource.status).selfDeclaredMadeForKids === true) {
    return apiError(res, 403, 'commentsDisabled', 'The video identified by the videoId parameter has disabled comments.', 'youtube.commentThread');
  }
  if (typeof text !== 'string' || !text.trim()) return apiError(res, 400, 'invalidCommentMetadata', 'The request metadata is invalid: empty comment text.', 'youtube.commentThread');
  if ([...text].length > 10_000) return apiError(res, 400, 'commentTextTooLong', 'The comment text is too long.', 'youtube.commentThread');
  const c = d.store.add({ id: `Ug${d.newId('comment', 24)}4AaABAg`, postId: video.id, text, authorId: channel.id, authorName: channel.handle });
  sendJson(res, 200, threadResource(d, c, video.channelId, channel, ['snippet']));
}
