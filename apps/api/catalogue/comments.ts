import { z } from 'zod';
import { NETWORKS } from '../../../adapters/platforms';
import { commentNetworks } from '../../../core/domain/comments';
import { COMMENT_ACTIONS } from '../../../core/ports/platform/comments';
import { checkedByCore, operation } from './types';
import { ok, OkMessage, Platform, ProfileUsername } from './common';

/**
 * Comments under the connected accounts' own posts (spec "Comments"). Every field is checked by
 * the route and the use case (core/usecases/comments.ts), so reddit answers 503 before anything
 * else and each network's rules give their own messages.
 */
const core = checkedByCore;
/** The networks whose descriptors declare comment rules. */
const COMMENT_PLATFORMS = commentNetworks(NETWORKS.map((n) => n.descriptor)).platforms.join(', ');
const target = {
  platform: core(Platform.describe(`The network: ${COMMENT_PLATFORMS}. reddit answers 503 reddit_unavailable; other networks 400 platform_not_supported.`)),
  user: core(ProfileUsername.describe('The profile whose connected account acts.')),
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
    platform: core(Platform.optional().describe(`The network (default instagram): ${COMMENT_PLATFORMS}.`)),
    post_id: core(z.string().optional().describe('The post id (bluesky: at:// URI; linkedin: post URN). One of post_id or post_url.')),
    post_url: core(z.string().optional().describe('A link to the post.')),
    limit: core(z.coerce.number().int().min(1).max(100).optional().describe('Comments per page.')),
    after: core(z.string().optional().describe('pagination.next_cursor of the previous page.')),
    comment_id: core(z.string().optional().describe('tiktok: list the replies under this comment (post_id still required).')),
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
    message: core(z.string().describe('The text.')),
    comment_id: core(z.string().optional()), post_id: core(z.string().optional()), post_url: core(z.string().optional()),
    attachment_url: core(z.string().optional().describe('facebook: an image URL.')),
    attachment_share_url: core(z.string().optional().describe('facebook: a GIF share URL.')),
  }),
  responses: { 200: { description: 'Created.', schema: ok({ id: z.string().optional(), message: z.string().optional(), platform: z.string().optional(), result: z.object({ comment_id: z.string() }).optional() }) } },
  errors: ERRORS,
});

const deleteBody = z.object({
  ...target,
  comment_id: core(z.string().describe('The comment.')),
  post_id: core(z.string().optional().describe('linkedin: the post URN (required).')),
});
const deleteDescription = 'Deletes a comment: instagram, facebook, youtube, linkedin (post_id required), tiktok (its own comments only), x and bluesky (their own replies). threads answers 400 platform_not_supported.';

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
    action: core(z.enum(COMMENT_ACTIONS)),
    comment_id: core(z.string().optional()),
    post_id: core(z.string().optional()),
    message: core(z.string().optional().describe('facebook edit: the new text.')),
    ban_author: core(z.boolean().optional().describe('youtube hide: also ban the author.')),
  }),
  responses: { 200: { description: 'Done; the action is echoed.', schema: ok({ platform: z.string(), action: z.string(), comment_id: z.string().nullable() }) } },
  errors: ERRORS,
  mcp: { destructive: false },
});

const replyBody = z.object({
  ...target,
  platform: core(Platform.optional().describe('instagram (default).')),
  comment_id: core(z.string().describe('The comment to answer.')),
  message: core(z.string().describe('The text (at most 1000 characters).')),
});

export const privateCommentReply = operation({
  id: 'privateCommentReply', method: 'post', path: '/svc/comments/reply', tags: ['comments'],
  summary: 'Reply to a comment in private (Instagram)',
  description: 'Sends one direct message to the author of a comment on the account\'s Instagram post, within 24 hours of the comment (400 outside_reply_window), with up to 3 link buttons.',
  auth: 'apiKey',
  body: replyBody.extend({ buttons: core(z.array(z.object({ title: z.string(), url: z.string() })).optional().describe('1 to 3 link buttons.')) }),
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
