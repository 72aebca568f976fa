/**
 * Changes to a published Page post (graph-api/reference/post#updating, #deleting; video#updating):
 * `POST /{post-id}` with `message`, `is_pinned`, `scheduled_publish_time` (unpublished posts only);
 * a video or reel (its id has no `_`) takes the new text as its `description`; `DELETE /{id}`.
 * Calls are made with the token of the Page that owns the post (`{page_id}_{post_id}`, the result's
 * `page_id`, or facebook_page_id).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext, PostEditor, PostRef } from '../../../core/ports/platform';
import { str } from '../kit/http';
import type { FacebookClient } from './client';
import { choosePage } from './pages';

const ID = /^\d+(_\d+)?$/;

export function createFacebookPostEditor(client: FacebookClient): PostEditor {
  const { graph } = client;
  const target = (ctx: CallContext, post: PostRef) => {
    if (!ID.test(post.id)) throw new PlatformError('facebook', { kind: 'invalid_content', code: 'invalid_post_id' }, 'A Facebook post id is {page_id}_{post_id} (text and photo posts) or the video id (videos and reels).');
    const pageId = str(post.extra?.page_id) ?? (post.id.includes('_') ? post.id.split('_')[0] : undefined);
    return { ...choosePage(ctx.credentials, pageId), isVideo: !post.id.includes('_') };
  };
  /** Graph's "object does not exist or cannot be loaded" (#100/33) is a post that is not there (or not this Page's). */
  const gone = (err: unknown, id: string) => {
    if (err instanceof PlatformError && err.upstream.code === '100/33') {
      return new PlatformError('facebook', { kind: 'rejected', code: 'not_found' }, `Facebook has no post ${id} that this Page can change.`, err.upstream);
    }
    return err;
  };
  return {
    async edit(ctx, post, changes) {
      const { page, singlePage, isVideo } = target(ctx, post);
      const settings = changes.settings ?? {};
      const text = changes.text;
      const params: Record<string, string | undefined> = {};
      const updated: string[] = [];
      if (isVideo) {
        if (settings.is_pinned !== undefined || settings.scheduled_publish_time !== undefined) {
          throw new PlatformError('facebook', { kind: 'invalid_content', code: 'invalid_field' }, 'Videos and reels take a new message only; is_pinned and scheduled_publish_time are for Page posts.');
        }
        if (text !== undefined) { params.description = text; updated.push('message'); }
      } else {
        if (text !== undefined) { params.message = text; updated.push('message'); }
        if (typeof settings.is_pinned === 'boolean') { params.is_pinned = String(settings.is_pinned); updated.push('is_pinned'); }
        if (typeof settings.scheduled_publish_time === 'number') { params.scheduled_publish_time = String(settings.scheduled_publish_time); updated.push('scheduled_publish_time'); }
      }
      if (!updated.length) throw new PlatformError('facebook', { kind: 'invalid_content', code: 'nothing_to_update' }, 'Nothing to update: send message, is_pinned or scheduled_publish_time.');
      try {
        const answer = await graph('POST', `/${post.id}`, params, { token: page.token, signal: ctx.signal, singlePage });
        if (answer.success !== true) throw client.fail({ kind: 'malformed', status: 200, what: '"success": true' });
      } catch (err) {
        throw gone(err, post.id);
      }
      return { id: post.id, ...(post.url ? { url: post.url } : {}), updated, extra: { ...post.extra, page_id: page.id } };
    },
    async unpublish(ctx, post) {
      const { page, singlePage } = target(ctx, post);
      try {
        const answer = await graph('DELETE', `/${post.id}`, {}, { token: page.token, signal: ctx.signal, singlePage });
        if (answer.success !== true) throw client.fail({ kind: 'malformed', status: 200, what: '"success": true' });
      } catch (err) {
        throw gone(err, post.id);
      }
    },
  };
}
