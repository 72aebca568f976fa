/** Changes to a published Lemmy post: edit with PUT /api/v3/post, removal with POST /api/v3/post/delete. */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor } from '../../../core/ports/platform';
import { str, type Json } from '../kit/http';
import type { LemmyClient } from './client';
import { checkBody, checkName, postOf, validPost } from './publish';
import { accountOf } from './session';

export function createLemmyPostEditor(client: LemmyClient): PostEditor {
  const idOf = (id: string) => {
    const n = Number(id);
    if (!Number.isInteger(n) || n <= 0) throw new PlatformError('lemmy', { kind: 'invalid_content', code: 'post_not_found' }, `${id} is not a Lemmy post id.`);
    return n;
  };
  return {
    async edit(ctx, post, changes) {
      const account = accountOf(ctx);
      const payload: Json = { post_id: idOf(post.id) };
      if (changes.title !== undefined) { checkName(changes.title); payload.name = changes.title; }
      if (changes.text !== undefined) { checkBody(changes.text); payload.body = changes.text; }
      if (changes.settings?.lemmy_nsfw !== undefined) payload.nsfw = changes.settings.lemmy_nsfw === true;
      if (Object.keys(payload).length === 1) throw new PlatformError('lemmy', { kind: 'invalid_content', code: 'text_empty' }, 'Nothing to change: give a new title or text.');
      const updated = postOf(await client.call(account.instance, 'PUT', '/post', payload, account.jwt, 'the edited post', validPost, ctx.signal));
      return { ...post, ...(str(updated.ap_id) ? { url: str(updated.ap_id)! } : {}) };
    },
    async unpublish(ctx, post) {
      const account = accountOf(ctx);
      await client.call(account.instance, 'POST', '/post/delete', { post_id: idOf(post.id), deleted: true }, account.jwt, 'the deleted post', validPost, ctx.signal);
    },
  };
}
