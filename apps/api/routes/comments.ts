import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { HeraldError, PlatformError } from '../../../core/domain/errors';
import { PLATFORMS, type Platform } from '../../../core/domain/platforms';
import { COMMENT_ACTIONS } from '../../../core/ports/platform';
import {
  actOnComment, createComment, deleteComment, listComments, privateReply, publicReply,
} from '../../../core/usecases/comments';
import { fromPlatformError } from '../http-errors';
import { bodyFields, formBoolean, parse, refuseUnavailablePlatforms, single } from '../input';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue';
import * as ops from '../catalogue/comments';

const text = (what: string) => z.string({ error: `${what} must be text` }).trim().min(1, `${what} must not be empty`);
const optionalText = (what: string) => z.preprocess((v) => (v === '' || v === null ? undefined : single(v)), text(what).optional());
const platform = z.preprocess((v) => (typeof single(v) === 'string' ? String(single(v)).toLowerCase() : single(v)),
  z.enum(PLATFORMS as unknown as [Platform, ...Platform[]], { error: `platform must be one of ${PLATFORMS.join(', ')}` }));

const target = { platform, user: z.preprocess(single, text('user')) };
const listQuery = z.object({
  ...target,
  platform: platform.default('instagram'),
  post_id: optionalText('post_id'),
  post_url: optionalText('post_url'),
  comment_id: optionalText('comment_id'),
  after: optionalText('after'),
  limit: z.preprocess((v) => (single(v) === undefined || single(v) === '' ? undefined : Number(single(v))),
    z.number({ error: 'limit must be a whole number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').optional()),
});
const createBody = z.object({
  ...target,
  message: z.preprocess(single, text('message')),
  comment_id: optionalText('comment_id'),
  post_id: optionalText('post_id'),
  post_url: optionalText('post_url'),
  attachment_url: optionalText('attachment_url').pipe(z.url({ error: 'attachment_url must be a URL' }).optional()),
  attachment_share_url: optionalText('attachment_share_url').pipe(z.url({ error: 'attachment_share_url must be a URL' }).optional()),
});
const deleteBody = z.object({ ...target, comment_id: optionalText('comment_id'), post_id: optionalText('post_id') });
const actionBody = z.object({
  ...target,
  action: z.preprocess((v) => (typeof single(v) === 'string' ? String(single(v)).toLowerCase() : single(v)),
    z.enum(COMMENT_ACTIONS, { error: `action must be one of ${COMMENT_ACTIONS.join(', ')}` })),
  comment_id: optionalText('comment_id'),
  post_id: optionalText('post_id'),
  message: optionalText('message'),
  ban_author: formBoolean,
});
const button = z.object({ title: text('buttons[].title').max(20, 'buttons[].title is at most 20 characters'), url: z.url({ error: 'buttons[].url must be a URL' }) });
const replyBody = z.object({
  ...target,
  platform: platform.default('instagram'),
  comment_id: z.preprocess(single, text('comment_id')),
  message: z.preprocess(single, text('message').max(1000, 'message is at most 1000 characters')),
  buttons: z.array(button).min(1, 'buttons needs at least one button').max(3, 'buttons takes at most 3 buttons').optional(),
});

/** Reddit first (503 before anything else), then the schema. */
function input<T extends z.ZodType>(schema: T, fields: Record<string, unknown>): z.infer<T> {
  refuseUnavailablePlatforms(fields.platform);
  return parse(schema, fields);
}

/** The action endpoint names the failure in `error` (spec "Errors"), a network's refusal included (502). */
async function withErrorField(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (raw) {
    const err = raw instanceof PlatformError ? fromPlatformError(raw, new Date()) : raw;
    if (!(err instanceof HeraldError)) throw err;
    throw new HeraldError(err.kind, err.message, err.errorCode, { error: err.message, ...err.details });
  }
}

/**
 * Comments (spec "Comments"): `GET /comments`, `POST /comments/create`, `DELETE` (or `POST`)
 * `/comments/delete`, `POST /comments/action`, and Instagram's `POST /comments/reply` (private,
 * within the 24-hour window) and `POST /comments/public-reply`.
 */
export function commentRoutes(router: Router<AppState>, deps: ApiDeps, ns: string): void {
  mount(router, ops.listComments, ns, async (ctx) => {
    const q = input(listQuery, { ...ctx.query });
    const { page, comments } = await listComments(deps, ctx.state.caller.account, {
      platform: q.platform, user: q.user, postId: q.post_id, postUrl: q.post_url, limit: q.limit, after: q.after, commentId: q.comment_id,
    });
    ctx.body = {
      success: true,
      comments,
      pagination: { next_cursor: page.cursor ?? null, has_next: page.cursor !== undefined },
      ...(page.partial ? { partial: true } : {}),
      ...(page.warnings?.length ? { warnings: page.warnings } : {}),
    };
  });

  mount(router, ops.createComment, ns, async (ctx) => {
    const b = input(createBody, bodyFields(ctx));
    const created = await createComment(deps, ctx.state.caller.account, {
      platform: b.platform, user: b.user, message: b.message, commentId: b.comment_id, postId: b.post_id, postUrl: b.post_url,
      attachmentUrl: b.attachment_url, attachmentShareUrl: b.attachment_share_url,
    });
    ctx.body = deps.platforms.get(b.platform)?.descriptor.comments?.createdAnswer === 'result'
      ? { success: true, platform: b.platform, result: { comment_id: created.id } }
      : { success: true, id: created.id, message: `Comment created on ${b.platform}.` };
  });

  const remove = async (ctx: Context & { state: AppState }) => {
    const b = input(deleteBody, bodyFields(ctx));
    await deleteComment(deps, ctx.state.caller.account, { platform: b.platform, user: b.user, commentId: b.comment_id ?? '', postId: b.post_id });
    ctx.body = { success: true, message: `Comment ${b.comment_id} deleted on ${b.platform}.` };
  };
  mount(router, ops.deleteComment, ns, remove);
  mount(router, ops.deleteCommentPost, ns, remove);

  mount(router, ops.commentAction, ns, async (ctx) => withErrorField(async () => {
    const b = input(actionBody, bodyFields(ctx));
    await actOnComment(deps, ctx.state.caller.account, {
      platform: b.platform, user: b.user, action: b.action, commentId: b.comment_id, postId: b.post_id, message: b.message, banAuthor: b.ban_author,
    });
    ctx.body = { success: true, platform: b.platform, action: b.action, comment_id: b.comment_id ?? null };
  }));

  mount(router, ops.privateCommentReply, ns, async (ctx) => {
    const b = input(replyBody, bodyFields(ctx));
    const sent = await privateReply(deps, ctx.state.caller.account, { platform: b.platform, user: b.user, commentId: b.comment_id, message: b.message, buttons: b.buttons });
    ctx.body = { success: true, platform: b.platform, comment_id: b.comment_id, message_id: sent.messageId, recipient_id: sent.recipientId ?? null };
  });

  mount(router, ops.publicCommentReply, ns, async (ctx) => {
    const b = input(replyBody.omit({ buttons: true }), bodyFields(ctx));
    const created = await publicReply(deps, ctx.state.caller.account, { platform: b.platform, user: b.user, commentId: b.comment_id, message: b.message });
    ctx.body = { success: true, id: created.id, message: `Reply posted under comment ${b.comment_id}.` };
  });
}
