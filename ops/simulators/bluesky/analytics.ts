/**
 * Bluesky counts on the simulator (docs.bsky.app, lexicons app.bsky.actor.getProfile,
 * app.bsky.feed.getPosts, app.bsky.feed.getAuthorFeed): followersCount and followsCount of the
 * profile, and each post view's likeCount, repostCount, replyCount and quoteCount. Replies and
 * quotes are the simulator's real records; likes, reposts and followers are seeded and grow with
 * time and posts. getAuthorFeed pages newest first (limit 1-100, opaque cursor).
 */
import type { ServerResponse } from 'node:http';
import type { SimRequest } from '../kit/http';
import { sendJson } from '../kit/http';
import type { AnalyticsModel, MetricShape } from '../kit/metrics';
import type { BlueskyAccountFixture, BlueskyRecord } from './state';
import { invalidRequest, param } from './xrpc';

const POST = 'app.bsky.feed.post';
export const BLUESKY_POST_SHAPES: Record<string, MetricShape> = { likeCount: { base: [1, 25] }, repostCount: { base: [0, 6] } };
export const BLUESKY_LEVELS: Record<string, MetricShape> = { followersCount: { base: [50, 3000], perDay: 1, perPost: 2 }, followsCount: { base: [20, 500] } };

export interface BlueskyAnalyticsState {
  model: AnalyticsModel;
  records: () => Iterable<BlueskyRecord>;
  authenticate(req: SimRequest): { account: BlueskyAccountFixture };
  findAccount(actor: string): BlueskyAccountFixture | undefined;
}

export function createBlueskyAnalytics(s: BlueskyAnalyticsState) {
  const { model } = s;
  const posts = () => [...s.records()].filter((r) => r.collection === POST);
  const createdAt = (r: BlueskyRecord) => new Date(String(r.value.createdAt ?? r.indexedAt));
  const api = {
    model,
    profileCounts(did: string) {
      const times = posts().filter((r) => r.did === did).map(createdAt);
      return {
        followersCount: model.level(did, 'followersCount', BLUESKY_LEVELS.followersCount!, model.now(), times),
        followsCount: model.level(did, 'followsCount', BLUESKY_LEVELS.followsCount!, model.now(), []),
      };
    },
    counts(r: BlueskyRecord) {
      const refersTo = (v: unknown, key: 'parent' | 'record') => {
        const o = v as Record<string, Record<string, unknown>> | undefined;
        return o?.[key]?.uri === r.uri;
      };
      return {
        likeCount: model.post(r.uri, 'likeCount', BLUESKY_POST_SHAPES.likeCount!, createdAt(r)),
        repostCount: model.post(r.uri, 'repostCount', BLUESKY_POST_SHAPES.repostCount!, createdAt(r)),
        replyCount: posts().filter((p) => refersTo(p.value.reply, 'parent')).length,
        quoteCount: posts().filter((p) => refersTo(p.value.embed, 'record') || refersTo((p.value.embed as Record<string, unknown> | undefined)?.record, 'record')).length,
      };
    },
  };

  function postView(r: BlueskyRecord) {
    const a = s.findAccount(r.did);
    return {
      uri: r.uri, cid: r.cid, author: { did: r.did, handle: a?.handle ?? 'handle.invalid', displayName: a?.displayName ?? '' },
      record: r.value, ...api.counts(r), indexedAt: r.indexedAt, labels: [],
    };
  }

  const handlers: Record<string, (req: SimRequest, res: ServerResponse) => void> = {
    'app.bsky.feed.getPosts'(req, res) {
      s.authenticate(req);
      const uris = param(req, 'uris').split(',');
      if (uris.length > 25) throw invalidRequest('uris must not have more than 25 elements');
      const found = posts().filter((r) => uris.includes(r.uri));
      sendJson(res, 200, { posts: found.map(postView) });
    },
    'app.bsky.feed.getAuthorFeed'(req, res) {
      s.authenticate(req);
      const author = s.findAccount(param(req, 'actor'));
      if (!author) throw invalidRequest('Profile not found');
      const limit = req.query.limit === undefined ? 50 : Number(req.query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidRequest('limit must be between 1 and 100');
      const all = posts().filter((r) => r.did === author.did).sort((a, b) => (a.rkey < b.rkey ? 1 : -1));
      const offset = req.query.cursor ? Number(Buffer.from(req.query.cursor, 'base64url').toString()) : 0;
      const page = all.slice(offset, offset + limit);
      const next = offset + limit < all.length ? Buffer.from(String(offset + limit)).toString('base64url') : undefined;
      sendJson(res, 200, { feed: page.map((r) => ({ post: postView(r) })), ...(next ? { cursor: next } : {}) });
    },
  };

  return { ...api, methods: { 'app.bsky.feed.getPosts': 'GET', 'app.bsky.feed.getAuthorFeed': 'GET' } as const, handlers };
}
export type BlueskyAnalytics = ReturnType<typeof createBlueskyAnalytics>;
