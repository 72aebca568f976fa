import { z } from 'zod';
import { NETWORKS } from '../../../adapters/platforms';
import { commentNetworks } from '../../../core/domain/comments';
import { COMMENT_ACTIONS } from '../../../core/ports/platform/comments';
import { PLATFORMS } from '../../../core/domain/platforms';
import { formBoolean, refuseUnavailablePlatforms, single } from '../input';
import { operation, ruledBy } from './types';
import { ok, OkMessage, Platform } from './common';

/**
 * Comments under the connected accounts' own posts (spec "Comments"). The edge checks each field
 * (reddit answers 503 before anything else); each network's rules (which target it takes, its
 * limits) are the use case's (core/usecases/comments.ts), with their own messages.
 */
/** The networks whose descriptors declare comment rules. */
const COMMENT_PLATFORMS = commentNetworks(NETWORKS.map((n) => n.descriptor)).platforms.join(', ');

/** Form values arrive repeated or empty: the last one, '' and null as none. */
const lastOf = (v: unknown) => {
  const one = single(v);
  return one === '' || one === null ? undefined : one;
};
const text = (what: string) => z.string({ error: `${what} must be text` }).trim().min(1, `${what} must not be empty`);
const optionalUrl = (what: string) => ruledBy(lastOf, text(what).pipe(z.url({ error: `${what} must be a URL` })).optional());
const requiredText = (what: string) => ruledBy(single, text(what));
const optionalText = (what: string) => ruledBy(lastOf, text(what).optional());
const PlatformEnum = z.enum(PLATFORMS, { error: `platform must be one of ${PLATFORMS.join(', ')}` }).describe(Platform.description ?? '');
const platform = (fallback?: 'instagram') => ruledBy((v) => {
  refuseUnavailablePlatforms(v);
  const one = single(v);
  return typeof one === 'string' ? one.toLowerCase() : one ?? fallback;
}, fallback ? PlatformEnum.default(fallback) : PlatformEnum);

const target = {
  platform: platform().describe(`The network: ${COMMENT_PLATFORMS}. reddit answers 503 reddit_unavailable; other networks 400 platform_not_supported.`),
  user: requiredText('user').describe('The profile whose connected account acts.'),
};
const ERRORS = {
  400: 'Missing or invalid fields, more than one target, a post id or link that names no post (invalid_post_url), platform_not_supported (the message names the networks that can), tiktok_reconnect_required.',
  403: 'Missing permission, or not the owner of the post or comment.',
  404: 'PROFILE_NOT_FOUND.',
  409: 'reauth_required: the account must be reconnected (body has reauth_required: true).',
  502: 'The network refused.',
  503: 'reddit_unavailable.',
} as const;

const Comment = z.looseObject({
  id: z.string(), text: z.string(), timestamp: z.string().nullable(),
  user: z.object({ id: z.string().nullable(), username: z.string().nullable() }),
  parent_id: z.string().optional(), hidden: z.boolean().optional(), is_owner: z.boolean().optional(),
  source: z.string().optional().describe('x: `mentions`.'),
});

export const listComments = operation({
  id: 'listComments', method: 'get', path: '/svc/comments', tags: ['comments'],
  summary: 'List comments under a post',
  description: 'Comments under one of the account\'s own posts, oldest first per page, with `pagination.next_cursor` to pass as `after`. x lists the replies among the account\'s mentions (`source: mentions`); threads without read-replies permission answers `partial: true` with a warning; tiktok returns the replies under `comment_id` when given. Facebook post ids: the video id, or `{page_id}_{post_id}`.',
  auth: 'apiKey',
  query: z.object({
    ...target,
    platform: platform('instagram').describe(`The network (default instagram): ${COMMENT_PLATFORMS}.`),
    post_id: optionalText('post_id').describe('The post id (bluesky: at:// URI; linkedin: post URN). One of post_id or post_url.'),
    post_url: optionalText('post_url').describe('A link to the post.'),
    comment_id: optionalText('comment_id').describe('tiktok: list the replies under this comment (post_id still required).'),
    after: optionalText('after').describe('pagination.next_cursor of the previous page.'),
    limit: ruledBy((v) => (lastOf(v) === undefined ? undefined : Number(lastOf(v))),
      z.number({ error: 'limit must be a whole number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').optional()
        .describe('Comments per page, 1-100.')),
  }),
  responses: {
    200: {
      description: 'A page of comments.',
      schema: ok({
        comments: z.array(Comment),
        pagination: z.object({ next_cursor: z.string().nullable(), has_next: z.boolean() }),
        partial: z.boolean().optional(), warnings: z.array(z.string()).optional(),
      }),
    },
  },
  errors: ERRORS,
});

export const createComment = operation({
  id: 'createComment', method: 'post', path: '/svc/comments/create', tags: ['comments'],
  summary: 'Create a comment or reply',
  description: 'Posts a comment as the connected account: exactly one of comment_id (a reply), post_id or post_url. instagram needs comment_id; tiktok always needs post_id (comment_id makes it a reply) and answers `{success, platform, result{comment_id}}`.',
  auth: 'apiKey',
  body: z.object({
    ...target,
    message: requiredText('message').describe('The text.'),
    comment_id: optionalText('comment_id'), post_id: optionalText('post_id'), post_url: optionalText('post_url'),
    attachment_url: optionalUrl('attachment_url').describe('facebook: an image URL.'),
    attachment_share_url: optionalUrl('attachment_share_url').describe('facebook: a GIF share URL.'),
  }),
  responses: { 200: { description: 'Created.', schema: ok({ id: z.string().optional(), message: z.string().optional(), platform: z.string().optional(), result: z.object({ comment_id: z.string() }).optional() }) } },
  errors: ERRORS,
});

const deleteBody = z.object({
  ...target,
  comment_id: optionalText('comment_id').describe('The comment (required).'),
  post_id: optionalText('post_id').describe('linkedin: the post URN (required).'),
});
/** "Deletes a comment: instagram, linkedin (post_id required), tiktok (its own comments only), …": from each network's comment rules. */
const deleteDescription = (() => {
  const withComments = NETWORKS.filter((n) => n.descriptor.comments);
  const can = withComments.filter((n) => n.descriptor.comments!.operations.includes('delete')).map((n) => {
    const rules = n.descriptor.comments!;
    const notes = [...(rules.deleteNeedsPost ? ['post_id required'] : []), ...(rules.notes?.delete ? [rules.notes.delete] : [])];
    return notes.length ? `${n.id} (${notes.join('; ')})` : n.id;
  });
  const cannot = withComments.filter((n) => !n.descriptor.comments!.operations.includes('delete')).map((n) => n.id);
  return `Deletes a comment: ${can.join(', ')}.${cannot.length ? ` ${cannot.join(', ')} ${cannot.length > 1 ? 'answer' : 'answers'} 400 platform_not_supported.` : ''}`;
})();

export const deleteComment = operation({
  id: 'deleteComment', method: 'delete', path: '/svc/comments/delete', tags: ['comments'],
  summary: 'Delete a comment', description: deleteDescription, auth: 'apiKey', body: deleteBody,
  responses: { 200: { description: 'Deleted.', schema: OkMessage } }, errors: ERRORS,
});

export const deleteCommentPost = operation({
  id: 'deleteCommentPost', method: 'post', path: '/svc/comments/delete', tags: ['comments'],
  summary: 'Delete a comment (POST)', description: `${deleteDescription} Same as DELETE, for clients that cannot send a body with DELETE.`,
  auth: 'apiKey', body: deleteBody, responses: { 200: { description: 'Deleted.', schema: OkMessage } }, errors: ERRORS,
  mcp: { exclude: true },
});

export const commentAction = operation({
  id: 'commentAction', method: 'post', path: '/svc/comments/action', tags: ['comments'],
  summary: 'Moderate a comment',
  description: 'One verb per call, each with its inverse: tiktok hide/unhide/like/unlike/pin/unpin (pinning is exclusive); facebook hide/unhide/like/unlike/edit (message); instagram hide/unhide, enable_comments/disable_comments (post_id, no comment_id); youtube hide/unhide/hold (post_id; ban_author with hide); threads hide/unhide/approve/ignore. Errors carry the message in `error`; a network refusal is 502.',
  auth: 'apiKey',
  body: z.object({
    ...target,
    action: ruledBy((v) => (typeof single(v) === 'string' ? String(single(v)).toLowerCase() : single(v)),
      z.enum(COMMENT_ACTIONS, { error: `action must be one of ${COMMENT_ACTIONS.join(', ')}` })),
    comment_id: optionalText('comment_id'),
    post_id: optionalText('post_id'),
    message: optionalText('message').describe('facebook edit: the new text.'),
    ban_author: formBoolean.describe('youtube hide: also ban the author.'),
  }),
  responses: { 200: { description: 'Done; the action is echoed.', schema: ok({ platform: z.string(), action: z.string(), comment_id: z.string().nullable() }) } },
  errors: ERRORS,
  mcp: { destructive: false },
});

const replyBody = z.object({
  ...target,
  platform: platform('instagram').describe('instagram (default).'),
  comment_id: requiredText('comment_id').describe('The comment to answer.'),
  message: ruledBy(single, text('message').max(1000, 'message is at most 1000 characters')).describe('The text (at most 1000 characters).'),
});

export const privateCommentReply = operation({
  id: 'privateCommentReply', method: 'post', path: '/svc/comments/reply', tags: ['comments'],
  summary: 'Reply to a comment in private (Instagram)',
  description: 'Sends one direct message to the author of a comment on the account\'s Instagram post, within 24 hours of the comment (400 outside_reply_window), with up to 3 link buttons.',
  auth: 'apiKey',
  body: replyBody.extend({
    buttons: z.array(z.object({
      title: text('buttons[].title').max(20, 'buttons[].title is at most 20 characters'),
      url: z.url({ error: 'buttons[].url must be a URL' }),
    })).min(1, 'buttons needs at least one button').max(3, 'buttons takes at most 3 buttons').optional().describe('1 to 3 link buttons.'),
  }),
  responses: { 200: { description: 'Sent.', schema: ok({ platform: z.string(), comment_id: z.string(), message_id: z.string(), recipient_id: z.string().nullable() }) } },
  errors: ERRORS,
  mcp: { readOnly: false },
});

export const publicCommentReply = operation({
  id: 'publicCommentReply', method: 'post', path: '/svc/comments/public-reply', tags: ['comments'],
  summary: 'Reply to a comment in public (Instagram)',
  description: 'Posts a public reply under a comment on the account\'s Instagram post.',
  auth: 'apiKey', body: replyBody,
  responses: { 200: { description: 'Posted.', schema: ok({ id: z.string(), message: z.string() }) } },
  errors: ERRORS,
});

export const commentOperations = [listComments, createComment, deleteComment, deleteCommentPost, commentAction, privateCommentReply, publicCommentReply];
