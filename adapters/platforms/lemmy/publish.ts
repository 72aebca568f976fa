/**
 * Publishing to a Lemmy community: a text post (name + markdown body), a link post (url), or a photo
 * post (the image uploaded to the instance's pict-rs, then posted as the post's url). Editing and
 * removal are posts.ts.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type PublishContext, type PublishOutcome, type Publisher, type PublishPost } from '../../../core/ports/platform';
import { collectAll, isObject, str, type Json } from '../kit/http';
import type { LemmyClient } from './client';
import { LEMMY_BODY_MAX_CHARS, lemmyDescriptor } from './descriptor';
import { accountOf, type LemmyAccount } from './session';

export const postOf = (b: Json): Json => (isObject(b.post_view) && isObject(b.post_view.post) ? b.post_view.post : {});
export const validPost = (b: Json) => typeof postOf(b).id === 'number';

export function checkName(name: string): void {
  const max = lemmyDescriptor.limits.textMaxChars!;
  if (name.trim() === '') throw new PlatformError('lemmy', { kind: 'invalid_content', code: 'text_empty' }, 'A Lemmy post needs a title.');
  const length = textLengthOf(lemmyDescriptor, name);
  if (length > max) throw new PlatformError('lemmy', { kind: 'invalid_content', code: 'text_too_long' }, `Lemmy post titles are limited to ${max} characters; this one has ${length}.`);
}
export function checkBody(body: string | undefined): void {
  if (body !== undefined && [...body].length > LEMMY_BODY_MAX_CHARS) {
    throw new PlatformError('lemmy', { kind: 'invalid_content', code: 'body_too_long' }, `Lemmy post bodies are limited to ${LEMMY_BODY_MAX_CHARS} characters; the description has ${[...body].length}.`);
  }
}

export function createLemmyPublisher(client: LemmyClient): Publisher {
  async function publish(ctx: PublishContext, post: PublishPost): Promise<PublishOutcome> {
    checkName(post.title);
    const body = post.description?.trim() ? post.description : undefined;
    checkBody(body);
    if (post.kind === 'video') throw new PlatformError('lemmy', { kind: 'unsupported' }, 'Lemmy takes text, link and photo posts, not videos.');
    if (post.kind === 'photo' && post.media.length !== 1) {
      throw new PlatformError('lemmy', { kind: 'invalid_content', code: 'too_many_photos' }, `A Lemmy post carries one image; this one has ${post.media.length}.`);
    }
    const account: LemmyAccount = accountOf(ctx);
    const s = post.settings;
    let url = typeof s.lemmy_url === 'string' ? s.lemmy_url : undefined;
    if (post.kind === 'photo') {
      const media = post.media[0]!;
      const bytes = await collectAll(ctx.media.read(media.id));
      url = await client.uploadImage(account.instance, account.jwt, bytes, media.contentType, media.filename ?? 'image', ctx.signal);
    }
    const payload: Json = {
      name: post.title,
      community_id: account.communityId,
      ...(url ? { url } : {}),
      ...(body ? { body } : {}),
      nsfw: s.lemmy_nsfw === true,
      ...(typeof s.lemmy_language_id === 'number' ? { language_id: s.lemmy_language_id } : {}),
      ...(post.kind === 'photo' && typeof s.lemmy_alt_text === 'string' ? { alt_text: s.lemmy_alt_text } : {}),
    };
    const created = postOf(await client.call(account.instance, 'POST', '/post', payload, account.jwt, 'the created post', validPost, ctx.signal));
    const apId = str(created.ap_id);
    return { postId: String(created.id), ...(apId ? { url: apId } : {}), warnings: [], ...(url ? { extra: { lemmy_url: url } } : {}) };
  }
  return {
    async publish(ctx, post) {
      return { kind: 'done', outcome: await publish(ctx, post) };
    },
  };
}
