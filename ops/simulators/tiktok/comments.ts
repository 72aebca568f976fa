/**
 * Comments on the TikTok simulator, as TikTok API for Business serves them for business accounts
 * (business-api.tiktok.com/portal/docs, "Comment", v1.3; every call carries `Access-Token` and
 * `business_id`, the account's open_id):
 * - `GET /business/comment/list/?business_id&video_id&cursor&max_count` and
 *   `GET /business/comment/reply/list/?business_id&video_id&comment_id&cursor&max_count`:
 *   `{comments[], cursor, has_more}`, offset cursors, max_count 1–30 (default 20);
 * - `POST /business/comment/create/ {business_id, video_id, text}` and
 *   `POST /business/comment/reply/create/ {business_id, video_id, comment_id, text}`;
 * - `POST /business/comment/delete/ {business_id, comment_id}`: only comments the account wrote;
 * - `POST /business/comment/hide/ {business_id, video_id, comment_id, action: HIDE|UNHIDE}`,
 *   `POST /business/comment/like/ {business_id, comment_id, action: LIKE|UNLIKE}`,
 *   `POST /business/comment/pin/ {business_id, video_id, comment_id, action: PIN|UNPIN}` (one pinned
 *   comment per video: pinning another moves the pin; replies cannot be pinned).
 * Only videos of the account itself; the grant needs the `comments` capability (sandbox stand-in of
 * the spec's connection capability). Comments written through the API show up in listings only
 * after `listingDelayMs` (TikTok: about 10 s); seeded comments of other users are there at once.
 */
import type { ServerResponse } from 'node:http';
import type { SimRequest } from '../kit/http';
import { type SeedCommentInput, type SimComment, type SimCommentStore } from '../kit/comments';
import { chars, isRecord, type Grant, type TikTokAccountFixture, type TikTokComment, type TikTokPost } from './fixtures';

export interface TikTokCommentDeps {
  store: SimCommentStore;
  posts: TikTokPost[];
  accounts: Map<string, TikTokAccountFixture>;
  newId(): string;
  listingDelayMs(): number;
  answer(res: ServerResponse, code: number, message: string, data?: unknown): void;
}

const PREFIX = '/open_api/v1.3/business/comment/';
const TEXT_MAX = 1200;
const PAGE_MAX = 30;

export const isCommentPath = (path: string): boolean => path.startsWith(PREFIX);

/** The wire form of a comment, as the business account sees it. */
function wire(d: TikTokCommentDeps, c: SimComment, viewer: string): Record<string, unknown> {
  const author = d.accounts.get(c.authorId);
  return {
    comment_id: c.id, video_id: c.postId, user_id: c.authorId, username: author?.username ?? c.authorName,
    display_name: author?.displayName ?? c.authorName, text: c.text, create_time: Math.floor(c.createdAt.getTime() / 1000),
    likes: c.likedBy.length, replies: d.store.replyCount(c.id), owner: c.authorId === viewer, liked: c.likedBy.includes(viewer),
    pinned: c.pinned, status: c.hidden ? 'HIDDEN' : 'PUBLIC', ...(c.parentId ? { parent_comment_id: c.parentId } : {}),
  };
}

/** What tests see of a comment. */
export function publicComment(d: TikTokCommentDeps, c: SimComment): TikTokComment {
  const owner = d.posts.find((p) => p.id === c.postId)?.openId ?? '';
  return {
    id: c.id, videoId: c.postId, openId: c.authorId, authorName: c.authorName, text: c.text, createdAt: c.createdAt,
    ...(c.parentId ? { parentId: c.parentId } : {}), hidden: c.hidden, liked: c.likedBy.includes(owner), pinned: c.pinned,
  };
}

/** A comment by another TikTok user (the `comment` control route); listed at once. */
export function seedTikTokComment(d: TikTokCommentDeps, input: SeedCommentInput): SimComment {
  if (!d.posts.some((p) => p.id === input.postId)) throw new Error(`unknown TikTok video ${input.postId}`);
  const parent = input.parentId ? d.store.get(input.parentId) : undefined;
  if (input.parentId && (!parent || parent.postId !== input.postId)) throw new Error(`unknown comment ${input.parentId} on video ${input.postId}`);
  const id = d.newId();
  return d.store.add({
    ...input, id, authorId: input.authorId ?? `fan-${id.slice(-8)}`, authorName: input.authorName ?? 'a_fan',
    extra: { ...input.extra },
  });
}

/** Answers a `/business/comment/…` call for `grant` (already checked live). */
export function tiktokCommentRoute(d: TikTokCommentDeps, req: SimRequest, res: ServerResponse, grant: Grant): void {
  const op = req.path.slice(PREFIX.length).replace(/\/$/, '');
  const reads = op === 'list' || op === 'reply/list';
  if (req.method !== (reads ? 'GET' : 'POST')) return d.answer(res, 40002, `Use ${reads ? 'GET' : 'POST'} for /business/comment/${op}/.`);
  if (!grant.capabilities.includes('comments')) return d.answer(res, 40001, 'No permission to operate comments of this account.');
  const p: Record<string, unknown> = reads ? { ...req.query } : (req.body.kind === 'json' && isRecord(req.body.value) ? req.body.value : {});
  if (p.business_id !== grant.openId) return d.answer(res, 40002, 'business_id is invalid: it must be the open_id of the authorized account.');
  const me = grant.openId;
  const no = (code: number, message: string): undefined => { d.answer(res, code, message); return undefined; };
  const video = (): TikTokPost | undefined => {
    const post = d.posts.find((x) => x.id === String(p.video_id ?? '') && x.state === 'published');
    if (!post) return no(40002, 'video_id is invalid.');
    if (post.openId !== me) return no(40001, 'The video does not belong to this business account.');
    return post;
  };
  const comment = (videoId?: string) => {
    const c = d.store.get(String(p.comment_id ?? ''));
    if (!c || (videoId !== undefined && c.postId !== videoId)) return no(40002, 'comment_id is invalid.');
    if (d.posts.find((x) => x.id === c.postId)?.openId !== me) return no(40001, 'The comment is not under a video of this business account.');
    return c;
  };
  // Comments the account wrote through the API wait out the listing delay (read now, so changing it applies to them too).
  const visible = (c: SimComment) => c.extra.viaApi !== true || Date.now() >= c.createdAt.getTime() + d.listingDelayMs();
  const text = () => {
    if (typeof p.text !== 'string' || !p.text.trim() || chars(p.text) > TEXT_MAX) return no(40002, `text must be 1-${TEXT_MAX} characters.`);
    return p.text;
  };
  const created = (c: SimComment) => d.answer(res, 0, 'OK', { ...wire(d, c, me) });
  const add = (postId: string, body: string, parentId?: string) => d.store.add({
    id: d.newId(), postId, text: body, authorId: me, authorName: d.accounts.get(me)?.username ?? me,
    ...(parentId ? { parentId } : {}), extra: { viaApi: true },
  });

  switch (op) {
    case 'list':
    case 'reply/list': {
      const post = video();
      if (!post) return;
      const parent = op === 'reply/list' ? comment(post.id) : undefined;
      if (op === 'reply/list' && !parent) return;
      const cursor = p.cursor === undefined ? 0 : Number(p.cursor);
      const max = p.max_count === undefined ? 20 : Number(p.max_count);
      if (!Number.isInteger(cursor) || cursor < 0) return d.answer(res, 40002, 'cursor must be a non-negative integer.');
      if (!Number.isInteger(max) || max < 1 || max > PAGE_MAX) return d.answer(res, 40002, `max_count must be from 1 to ${PAGE_MAX}.`);
      const all = d.store.list(post.id, parent ? { parentId: parent.id } : {}).filter(visible);
      const page = all.slice(cursor, cursor + max);
      return d.answer(res, 0, 'OK', { comments: page.map((c) => wire(d, c, me)), cursor: cursor + page.length, has_more: cursor + page.length < all.length });
    }
    case 'create': {
      const post = video();
      const body = post && text();
      if (!post || body === undefined) return;
      return created(add(post.id, body));
    }
    case 'reply/create': {
      const post = video();
      const parent = post && comment(post.id);
      const body = parent && text();
      if (!post || !parent || body === undefined) return;
      if (parent.parentId) return d.answer(res, 40002, 'Replies can only be made to top-level comments.');
      return created(add(post.id, body, parent.id));
    }
    case 'delete': {
      const c = comment();
      if (!c) return;
      if (c.authorId !== me) return d.answer(res, 40001, 'Only comments created by the business account can be deleted.');
      d.store.remove(c.id);
      return d.answer(res, 0, 'OK');
    }
    case 'hide':
    case 'pin': {
      const post = video();
      const c = post && comment(post.id);
      if (!post || !c) return;
      const verbs = op === 'hide' ? ['HIDE', 'UNHIDE'] : ['PIN', 'UNPIN'];
      if (!verbs.includes(String(p.action))) return d.answer(res, 40002, `action must be ${verbs.join(' or ')}.`);
      if (op === 'hide') {
        if (c.authorId === me) return d.answer(res, 40002, 'The business account cannot hide its own comment.');
        c.hidden = p.action === 'HIDE';
      } else {
        if (c.parentId) return d.answer(res, 40002, 'Only top-level comments can be pinned.');
        d.store.pin(c.id, p.action === 'PIN');
      }
      return d.answer(res, 0, 'OK');
    }
    case 'like': {
      const c = comment();
      if (!c) return;
      if (p.action !== 'LIKE' && p.action !== 'UNLIKE') return d.answer(res, 40002, 'action must be LIKE or UNLIKE.');
      d.store.like(c.id, me, p.action === 'LIKE');
      return d.answer(res, 0, 'OK');
    }
    default:
      return d.answer(res, 40002, `No such endpoint: /business/comment/${op}/.`);
  }
}
