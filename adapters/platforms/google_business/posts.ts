/**
 * Changes to a published Business Profile post: edit (PATCH the local post with an updateMask of
 * what changed: summary, call to action, event, offer) and delete (a local post, or a gallery item
 * added with gbp_post_type=MEDIA).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor, PostRef } from '../../../core/ports/platform';
import { str, type Json } from '../kit/http';
import type { GoogleBusinessClient } from './client';
import { googleBusinessDescriptor } from './descriptor';
import { localPostFields } from './publish';

const LOCAL_POST = /^accounts\/[^/]+\/locations\/[^/]+\/localPosts\/[^/]+$/;
const MEDIA_ITEM = /^accounts\/[^/]+\/locations\/[^/]+\/media\/[^/]+$/;

export function createGoogleBusinessPostEditor(client: GoogleBusinessClient): PostEditor {
  return {
    async edit(ctx, post, changes) {
      if (!LOCAL_POST.test(post.id)) {
        throw new PlatformError('google_business', { kind: 'unsupported' }, 'Only local posts can be edited; gallery media (gbp_post_type MEDIA) can only be deleted.');
      }
      const patch: Json = {};
      const text = changes.text ?? changes.title;
      if (text !== undefined) {
        const max = googleBusinessDescriptor.limits.textMaxChars!;
        if ([...text].length > max) throw new PlatformError('google_business', { kind: 'invalid_content', code: 'text_too_long' }, `A Business Profile post's summary is limited to ${max} characters.`);
        patch.summary = text;
      }
      const settings = changes.settings ?? {};
      if (Object.keys(settings).some((k) => k.startsWith('gbp_'))) Object.assign(patch, localPostFields(settings, []));
      const mask = Object.keys(patch);
      if (!mask.length) throw new PlatformError('google_business', { kind: 'invalid_content', code: 'nothing_to_update' }, 'Nothing to update: send a new text or gbp_ fields.');
      const updated = await client.call(client.tokenOf(ctx), 'PATCH', client.v4(`${post.id}?updateMask=${mask.join(',')}`), patch, ctx.signal);
      const url = str(updated.searchUrl) ?? post.url;
      const ref: PostRef = { id: str(updated.name) ?? post.id, ...(url ? { url } : {}), ...(post.extra ? { extra: post.extra } : {}) };
      return ref;
    },
    async unpublish(ctx, post) {
      if (!LOCAL_POST.test(post.id) && !MEDIA_ITEM.test(post.id)) {
        throw new PlatformError('google_business', { kind: 'invalid_content', code: 'invalid_post_id' }, 'A Business Profile post id is accounts/<a>/locations/<l>/localPosts/<p> (or …/media/<m>).');
      }
      await client.call(client.tokenOf(ctx), 'DELETE', client.v4(post.id), undefined, ctx.signal);
    },
  };
}
