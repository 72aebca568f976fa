import type { Comments } from '../../../core/ports/platform';
import { str } from '../kit/http';
import type { FacebookClient } from './client';
import { choosePage } from './pages';

/** A first comment on the Page's post (not on stories, drafts or unpublished posts). */
export function createFacebookComments(client: FacebookClient): Comments {
  const { graph } = client;
  return {
    async create(ctx, { post, text }) {
      const extra = post.extra ?? {};
      if (!post.id) return { warnings: ['The first comment was skipped: the Facebook post id is not known yet.'] };
      if (extra.media_type === 'STORIES') return { warnings: ['The first comment was skipped: Facebook stories take no comments.'] };
      if (extra.published === false) return { warnings: ['The first comment was skipped: the Facebook post is a draft or unpublished.'] };
      const pageId = str(extra.page_id) ?? post.id.split('_')[0];
      const { page, singlePage } = choosePage(ctx.credentials, pageId);
      const comment = await graph('POST', `/${post.id}/comments`, { message: text }, { token: page.token, signal: ctx.signal, singlePage, expect: 'id' });
      return { comment: { id: String(comment.id), post } };
    },
  };
}
