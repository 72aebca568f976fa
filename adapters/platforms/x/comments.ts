/** The first comment: a reply to the last post of the thread. */
import type { Comments } from '../../../core/ports/platform';
import type { XClient } from './client';
import { ids, invalid } from './plan';
import { stripLinks, TWEET_MAX_WEIGHT, xWeightedLength } from './text';

export function createXComments(client: XClient, opts: { keepLinks: boolean }): Comments {
  const { keepLinks } = opts;
  return {
    async create(ctx, { post, text }) {
      const threadIds = ids(post.extra?.post_ids);
      const target = threadIds[threadIds.length - 1] ?? post.id;
      if (!target) return { warnings: ['The X first comment was skipped: the post id is not known yet.'] };
      const warnings: string[] = [];
      let comment = text.trim();
      if (!keepLinks) {
        const stripped = stripLinks(comment);
        if (stripped.removed) warnings.push(`${stripped.removed} link(s) were removed from the X first comment.`);
        comment = stripped.text;
      }
      if (!comment) return { warnings: [...warnings, 'The X first comment was skipped: it is empty once its links are removed.'] };
      const weight = xWeightedLength(comment);
      if (weight > TWEET_MAX_WEIGHT) throw invalid('text_too_long', `The X first comment counts ${weight} characters; a reply holds at most ${TWEET_MAX_WEIGHT}.`);
      const commentId = await client.createTweet(ctx, client.accessToken(ctx), { text: comment, reply: { in_reply_to_tweet_id: target } });
      return { comment: { id: commentId, post }, warnings };
    },
  };
}
