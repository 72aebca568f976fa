/**
 * GET /2/users/:id/tweets as X answers it: the user's posts newest first, `max_results` 5–100,
 * `pagination_token` (meta.next_token), `until_id`, `exclude` (replies, retweets), and the
 * attachments.media_keys expansion with media.fields (url for photos, preview_image_url for
 * videos and GIFs) in `includes.media`. Unknown users and bad parameters answer problem JSON.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { encodeCursor, pageAfter } from '../kit/paging';
import type { MediaRecord, XSimTweet } from './fixtures';

export const X_SIM_MEDIA_CDN = 'https://pbs.twimg.com';

export function listUserTweets(req: SimRequest, res: ServerResponse, input: {
  userId: string; userExists: boolean; tweets: readonly XSimTweet[]; media: ReadonlyMap<string, MediaRecord>;
  invalidRequest: (res: ServerResponse, message: string, parameters?: Record<string, unknown[]>) => void;
}): void {
  const q = req.query as Record<string, string | undefined>;
  if (!input.userExists) {
    return sendJson(res, 200, { errors: [{ value: input.userId, detail: `Could not find user with id: [${input.userId}].`, title: 'Not Found Error', resource_type: 'user', parameter: 'id', resource_id: input.userId, type: 'https://api.twitter.com/2/problems/resource-not-found' }] });
  }
  const max = q.max_results === undefined ? 10 : Number(q.max_results);
  if (!Number.isInteger(max) || max < 5 || max > 100) {
    return input.invalidRequest(res, `The \`max_results\` query parameter value [${q.max_results}] is not between 5 and 100`, { max_results: [q.max_results] });
  }
  const exclude = (q.exclude ?? '').split(',').filter(Boolean);
  if (exclude.some((e) => e !== 'replies' && e !== 'retweets')) return input.invalidRequest(res, 'The `exclude` query parameter value is not one of [replies, retweets]');
  let all = input.tweets.filter((t) => t.author_id === input.userId && !(exclude.includes('replies') && t.in_reply_to_tweet_id)).slice().reverse();
  if (q.until_id) all = all.filter((t) => BigInt(t.id) < BigInt(q.until_id!));
  const page = pageAfter(all, (t) => t.id, max, q.pagination_token);
  if (!page) return input.invalidRequest(res, 'The `pagination_token` query parameter value is not valid', { pagination_token: [q.pagination_token] });
  const expand = (q.expansions ?? '').split(',').includes('attachments.media_keys');
  const fields = new Set((q['tweet.fields'] ?? '').split(',').filter(Boolean));
  const mediaFields = new Set((q['media.fields'] ?? '').split(',').filter(Boolean));
  const used: MediaRecord[] = [];
  const data = page.items.map((t) => {
    const records = t.media_ids.map((id) => input.media.get(id)).filter((m): m is MediaRecord => m !== undefined);
    used.push(...records);
    return {
      id: t.id, text: t.text, edit_history_tweet_ids: [t.id],
      ...(fields.has('created_at') ? { created_at: t.created_at } : {}),
      ...(fields.has('author_id') ? { author_id: t.author_id } : {}),
      ...(fields.has('conversation_id') ? { conversation_id: t.conversation_id } : {}),
      ...(fields.has('attachments') && records.length ? { attachments: { media_keys: records.map((m) => m.mediaKey) } } : {}),
    };
  });
  const kind = (m: MediaRecord) => (m.mediaType.startsWith('video/') ? 'video' : m.mediaType === 'image/gif' ? 'animated_gif' : 'photo');
  const includes = expand && used.length ? {
    media: used.map((m) => ({
      media_key: m.mediaKey, type: kind(m),
      ...(mediaFields.has('url') && kind(m) === 'photo' ? { url: `${X_SIM_MEDIA_CDN}/media/${m.mediaKey}.jpg` } : {}),
      ...(mediaFields.has('preview_image_url') && kind(m) !== 'photo' ? { preview_image_url: `${X_SIM_MEDIA_CDN}/ext_tw_video_thumb/${m.id}/pu/img/${m.mediaKey}.jpg` } : {}),
      ...(mediaFields.has('alt_text') && m.altText ? { alt_text: m.altText } : {}),
    })),
  } : undefined;
  const meta = {
    result_count: data.length,
    ...(data.length ? { newest_id: data[0]!.id, oldest_id: data[data.length - 1]!.id } : {}),
    ...(page.next ? { next_token: page.next } : {}),
    ...(q.pagination_token ? { previous_token: encodeCursor(`prev:${page.items[0]?.id ?? ''}`) } : {}),
  };
  sendJson(res, 200, { ...(data.length ? { data } : {}), ...(includes ? { includes } : {}), meta });
}

