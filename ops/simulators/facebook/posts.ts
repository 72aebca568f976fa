/**
 * Published-post operations of the Facebook simulator (graph-api/reference/post#updating,
 * #deleting; video#updating): `POST /{page-post-id}` with `message`, `is_pinned` (one pinned post
 * per Page) and `scheduled_publish_time` (unpublished posts only, 10 minutes to 75 days ahead);
 * `POST /{video-id}` with `description` / `name`; `DELETE /{id}` of a post, photo or video. Only
 * with a token of the Page that owns the object and `pages_manage_posts`.
 */
import type { FacebookSimPage, FacebookSimPhoto, FacebookSimPost, FacebookSimVideo, SimToken } from './model';

export interface FacebookPostsState {
  posts: FacebookSimPost[];
  photos: FacebookSimPhoto[];
  videos: FacebookSimVideo[];
  pageOf(token: SimToken, pageId: string, ...scopes: string[]): FacebookSimPage;
  iso(ms?: number): string;
  /** Graph's (#100) parameter error and its "object does not exist" (#100/33), as the simulator throws them. */
  paramError(message: string, subcode?: number): unknown;
  noSuchObject(id: string, method: string): unknown;
}

const MIN_SCHEDULE_S = 10 * 60;
const MAX_SCHEDULE_S = 75 * 86400;

/** The answer to a post operation, or undefined when the request is not one. */
export function facebookPostOperation(
  s: FacebookPostsState, token: SimToken, method: string, node: string, edge: string | undefined, params: Record<string, string>,
): unknown {
  if (edge !== undefined || (method !== 'POST' && method !== 'DELETE')) return undefined;
  const { paramError, noSuchObject } = s;
  const post = s.posts.find((p) => p.id === node);
  const photo = post ? undefined : s.photos.find((p) => p.id === node);
  const video = post || photo ? undefined : s.videos.find((v) => v.id === node && v.kind !== 'story');
  const target = post ?? photo ?? video;
  if (!target) {
    // Not an object this simulator has: a page id and the like fall through to the edges.
    if (/^\d+_\d+$/.test(node) || method === 'DELETE') throw noSuchObject(node, method);
    return undefined;
  }
  s.pageOf(token, target.pageId, 'pages_manage_posts');

  if (method === 'DELETE') {
    if (post) s.posts.splice(s.posts.indexOf(post), 1);
    if (photo) s.photos.splice(s.photos.indexOf(photo), 1);
    if (video) s.videos.splice(s.videos.indexOf(video), 1);
    // A photo or video goes with the feed post it made, and the post with its photos.
    if (post) for (const id of post.attachedMedia) { const i = s.photos.findIndex((p) => p.id === id); if (i >= 0) s.photos.splice(i, 1); }
    if (photo || video) { const i = s.posts.findIndex((p) => p.attachedMedia.includes(node) || (video?.postId === p.id)); if (i >= 0) s.posts.splice(i, 1); }
    return { success: true };
  }

  if (video) {
    if (params.description === undefined && params.name === undefined) throw paramError('No fields to update: send description or name');
    if (params.description !== undefined) video.description = params.description;
    if (params.name !== undefined) video.title = params.name;
    return { success: true };
  }
  if (!post) throw paramError('Photos are edited through the post they belong to');
  const known = ['message', 'is_pinned', 'scheduled_publish_time', 'published'];
  const unknown = Object.keys(params).find((k) => !known.includes(k) && k !== 'appsecret_proof' && k !== 'access_token');
  if (unknown) throw paramError(`Param ${unknown} cannot be updated on a post`);
  if (params.message === undefined && params.is_pinned === undefined && params.scheduled_publish_time === undefined) {
    throw paramError('No fields to update: send message, is_pinned or scheduled_publish_time');
  }
  if (params.is_pinned !== undefined && !['true', 'false'].includes(params.is_pinned)) throw paramError('Param is_pinned must be a boolean');
  if (params.scheduled_publish_time !== undefined) {
    if (post.published) throw paramError('The scheduled_publish_time can only be set on an unpublished post', 1363168);
    const at = Number(params.scheduled_publish_time);
    const ahead = at - Date.now() / 1000;
    if (!Number.isInteger(at) || ahead < MIN_SCHEDULE_S || ahead > MAX_SCHEDULE_S) {
      throw paramError('The specified scheduled publish time is invalid: it must be between 10 minutes and 75 days from now', 1363168);
    }
  }
  if (params.is_pinned === 'true' && !post.published) throw paramError('Only published posts can be pinned');
  if (params.message !== undefined) post.message = params.message;
  if (params.is_pinned !== undefined) {
    if (params.is_pinned === 'true') for (const p of s.posts) if (p.pageId === post.pageId) p.isPinned = false;
    post.isPinned = params.is_pinned === 'true';
  }
  if (params.scheduled_publish_time !== undefined) post.scheduledPublishTime = Number(params.scheduled_publish_time);
  post.updatedTime = s.iso();
  return { success: true };
}
