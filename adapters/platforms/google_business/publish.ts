/**
 * Publishing to a Business Profile location: a local post (v4 `accounts/{a}/locations/{l}/localPosts`:
 * STANDARD, EVENT or OFFER, with a call to action and photos or a video), or with
 * `gbp_post_type=MEDIA` the photos / video added to the location's gallery (v4 `…/media` with
 * `locationAssociation.category`). Google fetches media itself: each item goes as a signed,
 * expiring `sourceUrl` of Herald's media store.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type PublishContext, type PublishOutcome, type PublishPost, type Publisher } from '../../../core/ports/platform';
import { str, type Json } from '../kit/http';
import type { GoogleBusinessClient } from './client';
import { GBP_PHOTO_MIN_BYTES, googleBusinessDescriptor } from './descriptor';
import { resolveLocation } from './locations';
import { parseGbpDateTime } from './settings';

function refuse(code: string, message: string): never {
  throw new PlatformError('google_business', { kind: 'invalid_content', code }, message);
}

/** The LocalPost fields a post's settings give (event, offer, call to action), with warnings for what Google ignores. */
export function localPostFields(settings: Record<string, unknown>, warnings: string[]): Json {
  const type = (settings.gbp_post_type as string | undefined) ?? 'STANDARD';
  const out: Json = {};
  if (type === 'EVENT' || type === 'OFFER') {
    const start = parseGbpDateTime(String(settings.gbp_event_start ?? ''));
    const end = parseGbpDateTime(String(settings.gbp_event_end ?? ''));
    if (!start || !end || typeof settings.gbp_event_title !== 'string') refuse('gbp_event_required', `A ${type} post needs gbp_event_title, gbp_event_start and gbp_event_end.`);
    out.event = {
      title: settings.gbp_event_title,
      schedule: { startDate: start.date, ...(start.time ? { startTime: start.time } : {}), endDate: end.date, ...(end.time ? { endTime: end.time } : {}) },
    };
  }
  if (type === 'OFFER') {
    const offer = {
      ...(typeof settings.gbp_offer_coupon_code === 'string' ? { couponCode: settings.gbp_offer_coupon_code } : {}),
      ...(typeof settings.gbp_offer_redeem_url === 'string' ? { redeemOnlineUrl: settings.gbp_offer_redeem_url } : {}),
      ...(typeof settings.gbp_offer_terms === 'string' ? { termsConditions: settings.gbp_offer_terms } : {}),
    };
    if (Object.keys(offer).length) out.offer = offer;
    if (settings.gbp_cta_type !== undefined) warnings.push('gbp_cta_type was not sent: Google ignores calls to action on OFFER posts (the offer shows its own).');
  } else if (typeof settings.gbp_cta_type === 'string') {
    out.callToAction = { actionType: settings.gbp_cta_type, ...(typeof settings.gbp_cta_url === 'string' ? { url: settings.gbp_cta_url } : {}) };
  }
  return out;
}

export function createGoogleBusinessPublisher(client: GoogleBusinessClient): Publisher {
  const max = googleBusinessDescriptor.limits.textMaxChars!;
  /** Location id → account id, learnt from the locations list. */
  const accountOf = new Map<string, string>();

  function check(post: PublishPost): void {
    const length = textLengthOf(googleBusinessDescriptor, post.title);
    if (length > max) refuse('text_too_long', `A Business Profile post's summary is limited to ${max} characters; this text has ${length}.`);
    const type = post.settings.gbp_post_type ?? 'STANDARD';
    if (post.kind === 'text') {
      if (post.media.length) throw new PlatformError('google_business', { kind: 'unsupported' }, 'A text post carries no media.');
      if (type === 'MEDIA') refuse('media_required', 'gbp_post_type MEDIA needs photos or a video.');
      if (!post.title.trim()) refuse('text_empty', 'A Business Profile text post needs a summary.');
    }
    if (post.kind === 'video' && (post.media.length !== 1 || post.media[0]!.kind !== 'video')) refuse('media_required', 'A Business Profile video post takes exactly one video.');
    if (post.kind === 'photo' && (!post.media.length || post.media.some((m) => m.kind !== 'image'))) refuse('media_required', 'A Business Profile photo post takes photos only.');
    for (const [i, m] of post.media.entries()) {
      if (m.kind === 'image' && m.size < GBP_PHOTO_MIN_BYTES) refuse('photo_too_small', `Photo ${i + 1} is ${m.size} bytes; Google takes photos of at least 10 KB.`);
    }
  }

  async function publishMedia(ctx: PublishContext, post: PublishPost, base: string): Promise<PublishOutcome> {
    const token = client.tokenOf(ctx);
    const names: string[] = [];
    let url: string | undefined;
    for (const m of post.media) {
      const item = await client.call(token, 'POST', client.v4(`${base}/media`), {
        mediaFormat: m.kind === 'video' ? 'VIDEO' : 'PHOTO',
        locationAssociation: { category: post.settings.gbp_media_category ?? 'ADDITIONAL' },
        sourceUrl: ctx.media.publicUrl(m.id),
        ...(post.title.trim() ? { description: post.title } : {}),
      }, ctx.signal);
      const name = str(item.name);
      if (!name) throw client.failure({ kind: 'malformed', status: 200, what: 'the media item name' });
      names.push(name);
      url ??= str(item.googleUrl);
    }
    return {
      postId: names[0]!, ...(url?.startsWith('https://') ? { url } : {}), warnings: [],
      extra: { gbp_location_id: base.split('/').at(-1), gbp_post_type: 'MEDIA', ...(names.length > 1 ? { media_names: names } : {}) },
    };
  }

  async function publishPost(ctx: PublishContext, post: PublishPost, base: string): Promise<PublishOutcome> {
    const warnings: string[] = [];
    const type = (post.settings.gbp_post_type as string | undefined) ?? 'STANDARD';
    const body: Json = {
      languageCode: post.settings.gbp_language_code ?? 'en-US',
      ...(post.title.trim() ? { summary: post.title } : {}),
      topicType: type,
      ...localPostFields(post.settings, warnings),
      ...(post.media.length ? { media: post.media.map((m) => ({ mediaFormat: m.kind === 'video' ? 'VIDEO' : 'PHOTO', sourceUrl: ctx.media.publicUrl(m.id) })) } : {}),
    };
    const created = await client.call(client.tokenOf(ctx), 'POST', client.v4(`${base}/localPosts`), body, ctx.signal);
    const name = str(created.name);
    if (!name) throw client.failure({ kind: 'malformed', status: 200, what: 'the local post name' });
    const url = str(created.searchUrl);
    return {
      postId: name, ...(url?.startsWith('https://') ? { url } : {}), warnings,
      extra: { gbp_location_id: base.split('/').at(-1), gbp_post_type: type, ...(str(created.state) ? { state: str(created.state) } : {}) },
    };
  }

  return {
    async publish(ctx, post) {
      check(post);
      const where = await resolveLocation(client, ctx, post.settings.gbp_location_id as string | undefined, accountOf);
      const base = `accounts/${encodeURIComponent(where.accountId)}/locations/${encodeURIComponent(where.locationId)}`;
      const outcome = post.settings.gbp_post_type === 'MEDIA' ? await publishMedia(ctx, post, base) : await publishPost(ctx, post, base);
      return { kind: 'done', outcome };
    },
  };
}
