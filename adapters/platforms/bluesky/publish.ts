/**
 * Publishing app.bsky.feed.post records: text, images (uploadBlob first, 4 per post, a thread for a
 * gallery) and video (video.ts). Bluesky takes no idempotency key, so ctx.idempotencyKey cannot be
 * forwarded.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { PublishContext, PublishPost, PublishStep, Publisher } from '../../../core/ports/platform';
import { collectAll, isObject, type Json } from '../kit/http';
import type { BlueskyClient } from './client';
import { planPost, type PostPlan } from './plan';
import type { BlueskyRecords } from './records';
import { sessionOf, type Session } from './session';
import { IMAGES_PER_POST } from './settings';
import { aspectRatio, type BlueskyVideo, type VideoState } from './video';

export function createBlueskyPublisher(client: BlueskyClient, records: BlueskyRecords, video: BlueskyVideo): Publisher {
  async function uploadImages(ctx: PublishContext, session: Session, plan: PostPlan): Promise<Json[]> {
    const items: Json[] = [];
    for (const [i, image] of plan.images.entries()) {
      const data = await collectAll(ctx.media.read(image.id));
      const { status, body } = await client.xrpc(session.service, 'com.atproto.repo.uploadBlob', {
        method: 'POST', token: session.accessJwt, signal: ctx.signal, bytes: { data, contentType: image.contentType },
      });
      if (!isObject(body.blob)) throw client.failure({ kind: 'malformed', status, what: 'the uploaded blob' }, client.uploadTimeoutMs);
      items.push({ image: body.blob, alt: plan.alts[i] ?? '', ...aspectRatio(image) });
    }
    const embeds: Json[] = [];
    for (let i = 0; i < items.length; i += IMAGES_PER_POST) {
      embeds.push({ $type: 'app.bsky.embed.images', images: items.slice(i, i + IMAGES_PER_POST) });
    }
    return embeds;
  }

  async function publish(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const session = sessionOf(ctx.credentials);
    const p = planPost(post);
    // Resolved first: a quote of a missing post fails before any media is uploaded.
    const quote = p.quote ? await records.resolvePost(session, p.quote, ctx.signal) : undefined;
    if (p.video) return video.start(ctx, session, p, quote);
    const embeds = p.images.length ? await uploadImages(ctx, session, p) : [];
    return { kind: 'done', outcome: await records.createPosts(session, p, embeds, quote, ctx.signal) };
  }

  async function resume(ctx: PublishContext, post: PublishPost, raw: Record<string, unknown>): Promise<PublishStep> {
    const session = sessionOf(ctx.credentials);
    if (raw.phase !== 'video_processing' || typeof raw.jobId !== 'string') {
      throw new PlatformError('bluesky', { kind: 'rejected', code: 'invalid_state' }, 'Cannot resume this Bluesky publish: its saved state is not a video job.');
    }
    return video.resume(ctx, session, planPost(post), raw as unknown as VideoState);
  }

  return { publish, resume };
}
