/**
 * Publishing through the API v2: chunked media upload (/2/media/upload/initialize → /{id}/append →
 * /{id}/finalize, then GET /2/media/upload?command=STATUS while X processes), alt text with
 * POST /2/media/metadata, and POST /2/tweets, one call per tweet of a thread; long-form Articles.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { PublishContext, Publisher, PublishOutcome, PublishPost, PublishStep } from '../../../core/ports/platform';
import { collectAll, isObject, str, type Json } from '../kit/http';
import type { XClient } from './client';
import { ids, invalid, isPublishState, planThread, tweetBody, type XPublishState } from './plan';
import { isGif } from './settings';

/** X takes append segments up to 5 MB; 4 MiB leaves room for the multipart envelope. */
export const MAX_SEGMENT_BYTES = 5 * 1024 * 1024;
/** A tweet of a half-posted thread is retried in place this many times before the rest is given up. */
const THREAD_RETRY_LIMIT = 3;
const THREAD_BACKOFF_MS = 5_000;
const THREAD_MAX_WAIT_MS = 15 * 60_000;

const mediaCategory = (m: MediaRef) => (m.kind === 'video' ? 'tweet_video' : isGif(m) ? 'tweet_gif' : 'tweet_image');

interface ProcessingInfo { state: string; checkAfterSecs: number; error?: Json }

function processingOf(data: Json): ProcessingInfo | undefined {
  const info = isObject(data.processing_info) ? data.processing_info : undefined;
  if (!info || typeof info.state !== 'string') return undefined;
  const after = typeof info.check_after_secs === 'number' && info.check_after_secs > 0 ? info.check_after_secs : 1;
  return { state: info.state, checkAfterSecs: after, error: isObject(info.error) ? info.error : undefined };
}

export function createXPublisher(client: XClient, opts: { keepLinks: boolean; chunkBytes: number }): Publisher {
  const { keepLinks, chunkBytes } = opts;

  /** initialize → append (segments of chunkBytes) → finalize; alt text right after for images. */
  async function uploadMedia(ctx: PublishContext, token: string, ref: MediaRef, altText: string | undefined): Promise<{ id: string; processing?: ProcessingInfo }> {
    const init = await client.apiData(token, 'POST', '/2/media/upload/initialize', 'the media id', {
      json: { media_type: ref.contentType, total_bytes: ref.size, media_category: mediaCategory(ref) }, signal: ctx.signal,
    });
    const id = str(init.id);
    if (!id) throw client.failure({ kind: 'malformed', status: 200, what: 'the media id' });
    for (let segment = 0, start = 0; start < ref.size; segment += 1, start += chunkBytes) {
      const bytes = await collectAll(ctx.media.read(ref.id, { start, end: Math.min(ref.size, start + chunkBytes) }));
      const form = new FormData();
      form.append('segment_index', String(segment));
      form.append('media', new Blob([bytes], { type: 'application/octet-stream' }), 'blob');
      await client.api(token, 'POST', `/2/media/upload/${encodeURIComponent(id)}/append`, { form, signal: ctx.signal });
    }
    const finalized = await client.apiData(token, 'POST', `/2/media/upload/${encodeURIComponent(id)}/finalize`, 'the finalized media', { signal: ctx.signal });
    const processing = processingOf(finalized);
    if (processing?.state === 'failed') throw client.failure({ kind: 'processing_failed', mediaId: id, error: processing.error ?? {} });
    if (altText) {
      await client.api(token, 'POST', '/2/media/metadata', { json: { id, metadata: { alt_text: { text: altText } } }, signal: ctx.signal });
    }
    return { id, processing: processing && processing.state !== 'succeeded' ? processing : undefined };
  }

  const postUrl = (ctx: PublishContext, id: string) =>
    ctx.credentials.username ? `https://x.com/${ctx.credentials.username}/status/${id}` : `https://x.com/i/web/status/${id}`;

  function finished(ctx: PublishContext, state: XPublishState): PublishStep {
    const outcome: PublishOutcome = {
      postId: state.posted[0]!,
      url: postUrl(ctx, state.posted[0]!),
      warnings: state.warnings,
      // All ids of the thread: the first comment replies to the last one.
      extra: { post_ids: state.posted },
    };
    return { kind: 'done', outcome };
  }

  /**
   * Posts the remaining tweets. Once part of a thread is live a failure must not restart the
   * publish (it would post the first tweets again), so it becomes a `wait` that retries the same
   * tweet, or, when retrying cannot help, a finished post with a warning about the missing rest.
   */
  async function postThread(ctx: PublishContext, post: PublishPost, state: XPublishState): Promise<PublishStep> {
    const token = client.accessToken(ctx);
    const postedBefore = state.posted.length;
    while (state.posted.length < state.tweets.length) {
      try {
        state.posted.push(await client.createTweet(ctx, token, tweetBody(state, state.posted.length, post.settings)));
        state.attempts = 0;
      } catch (err) {
        if (!(err instanceof PlatformError) || state.posted.length === 0) throw err;
        if (err.failure.kind === 'auth_expired') {
          // The caller refreshes and repeats this very step with the state it started from: save
          // the tweets posted in this call first, so the repeat starts after them.
          if (state.posted.length > postedBefore) return { kind: 'wait', afterMs: 0, state: { ...state } };
          throw err;
        }
        const waitMs = err.failure.kind === 'rate_limited' ? err.failure.retryAfterMs
          : err.failure.kind === 'transient' ? THREAD_BACKOFF_MS * 2 ** state.attempts : undefined;
        if (waitMs !== undefined && waitMs <= THREAD_MAX_WAIT_MS && state.attempts < THREAD_RETRY_LIMIT) {
          return { kind: 'wait', afterMs: waitMs, state: { ...state, attempts: state.attempts + 1 } };
        }
        const missing = state.tweets.length - state.posted.length;
        state.warnings.push(`Only ${state.posted.length} of the ${state.tweets.length} posts of the X thread were published; the last ${missing} failed: ${err.message}`);
        return finished(ctx, state);
      }
    }
    return finished(ctx, state);
  }

  /** Polls STATUS for the media X is still processing; posts once all of it is ready. */
  async function continueProcessing(ctx: PublishContext, post: PublishPost, state: XPublishState): Promise<PublishStep> {
    const token = client.accessToken(ctx);
    let checkAfterSecs = 0;
    const still: number[] = [];
    for (const index of state.processing) {
      const mediaId = state.mediaIds[index]!;
      const data = await client.apiData(token, 'GET', '/2/media/upload', 'the media status', { query: { command: 'STATUS', media_id: mediaId }, signal: ctx.signal });
      const processing = processingOf(data);
      if (processing?.state === 'failed') throw client.failure({ kind: 'processing_failed', mediaId, error: processing.error ?? {} });
      if (processing && processing.state !== 'succeeded') {
        still.push(index);
        checkAfterSecs = Math.max(checkAfterSecs, processing.checkAfterSecs);
      }
    }
    state.processing = still;
    if (still.length) return { kind: 'wait', afterMs: checkAfterSecs * 1000, state: { ...state } };
    return postThread(ctx, post, state);
  }

  /**
   * Long-form X Articles (POST /2/articles/draft, then /2/articles/{id}/publish): paragraphs become
   * DraftJS text blocks; links stay (Articles show them). x_article_draft stops after the draft.
   */
  async function publishArticle(ctx: PublishContext, post: PublishPost): Promise<PublishOutcome> {
    const token = client.accessToken(ctx);
    const title = String(post.settings.x_article_title).trim();
    const paragraphs = post.title.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
    if (!title) throw invalid('article_title', 'x_article_title is empty.');
    if (!paragraphs.length) throw invalid('text_empty', 'The X Article has no text.');
    const blocks = paragraphs.map((text, i) => ({ key: `b${i}`, text, type: 'unstyled', entity_ranges: [], inline_style_ranges: [] }));
    const draft = await client.apiData(token, 'POST', '/2/articles/draft', 'the Article draft', { json: { title, content_state: { blocks, entities: [] } }, signal: ctx.signal });
    const articleId = typeof draft.id === 'string' ? draft.id : '';
    if (!articleId) throw invalid('unexpected_response', 'X answered the Article draft without an id.');
    if (post.settings.x_article_draft === true) {
      return { postId: articleId, warnings: ['The X Article was saved as a draft: publish it on X.'], extra: { x_article_id: articleId, x_article_status: 'draft' } };
    }
    const published = await client.apiData(token, 'POST', `/2/articles/${encodeURIComponent(articleId)}/publish`, 'the published Article', { signal: ctx.signal });
    const postId = typeof published.post_id === 'string' ? published.post_id : articleId;
    const handle = ctx.credentials.username;
    return {
      postId,
      ...(handle ? { url: `https://x.com/${handle}/status/${postId}` } : {}),
      warnings: [],
      extra: { x_article_id: articleId, x_article_status: 'published' },
    };
  }

  return {
    async publish(ctx, post) {
      if (post.kind === 'text' && typeof post.settings.x_article_title === 'string') return { kind: 'done', outcome: await publishArticle(ctx, post) };
      const token = client.accessToken(ctx);
      const { tweets, warnings } = planThread(post, keepLinks);
      // X has no idempotency key on POST /2/tweets; ctx.idempotencyKey cannot be forwarded.
      const state: XPublishState = { v: 1, tweets, mediaIds: [], processing: [], posted: [], attempts: 0, warnings };
      const alts = post.kind === 'photo' ? ids(post.settings.x_alt_text) : [];
      let checkAfterSecs = 0;
      for (const [index, ref] of post.media.entries()) {
        const uploaded = await uploadMedia(ctx, token, ref, alts[index]);
        state.mediaIds.push(uploaded.id);
        if (uploaded.processing) {
          state.processing.push(index);
          checkAfterSecs = Math.max(checkAfterSecs, uploaded.processing.checkAfterSecs);
        }
      }
      if (state.processing.length) return { kind: 'wait', afterMs: checkAfterSecs * 1000, state: { ...state } };
      return postThread(ctx, post, state);
    },
    async resume(ctx, post, saved) {
      if (!isPublishState(saved)) {
        throw new PlatformError('x', { kind: 'rejected', code: 'invalid_state' }, 'The saved X publishing state is not readable; publish again.');
      }
      const state: XPublishState = structuredClone(saved);
      return state.processing.length ? continueProcessing(ctx, post, state) : postThread(ctx, post, state);
    },
  };
}
