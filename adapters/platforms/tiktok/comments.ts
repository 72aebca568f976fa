/**
 * First comments through TikTok API for Business, the only TikTok API that writes comments
 * (business-api.tiktok.com/portal/docs, "Create a new comment on an owned video", v1.3):
 * `POST /v1.3/business/comment/create/ {business_id, video_id, text}` with an `Access-Token`
 * header; `business_id` is the account's open_id. The connection's token is used for it.
 */
import type { Comments } from '../../../core/ports/platform';
import { exchangeJson, isObject } from '../kit/http';
import type { TikTokClient } from './client';
import { capabilitiesOf } from './connect';
import { chars, invalid } from './validate';

/** API for Business takes up to 1,200 characters of comment text. */
const COMMENT_MAX_CHARS = 1200;

export function createTikTokComments(client: TikTokClient): Comments {
  return {
    async create(ctx, { post, text }) {
      if (!capabilitiesOf(ctx.credentials).has('comments')) {
        return { warnings: ['The first comment was skipped: this TikTok connection lacks the "comments" capability (reconnect the account to get it).'] };
      }
      const publishId = isObject(post.extra) ? post.extra.publish_id : undefined;
      if (!post.id || post.id === publishId) {
        return { warnings: ['The first comment was skipped: TikTok has not released the post id yet (drafts never get one).'] };
      }
      if (chars(text) > COMMENT_MAX_CHARS) throw invalid('text_too_long', `TikTok comments are limited to ${COMMENT_MAX_CHARS} characters; this one has ${chars(text)}.`);
      const outcome = await exchangeJson(`${client.businessBase}/v1.3/business/comment/create/`, {
        method: 'POST',
        headers: { 'access-token': client.tokenOf(ctx), 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ business_id: ctx.credentials.open_id ?? '', video_id: post.id, text }),
      }, { fetch: client.bigIdFetch, timeoutMs: client.timeoutMs, signal: ctx.signal });
      if (outcome.kind === 'no_response') throw client.failure(outcome);
      const body = isObject(outcome.body) ? outcome.body : {};
      if (outcome.status < 200 || outcome.status >= 300 || body.code !== 0) throw client.failure(outcome);
      const data = isObject(body.data) ? body.data : {};
      if (typeof data.comment_id !== 'string') throw client.failure({ kind: 'malformed', status: outcome.status, what: 'a comment_id' });
      return { comment: { id: data.comment_id, post } };
    },
  };
}
