import type Router from '@koa/router';
import type { Context } from 'koa';
import { HeraldError, PlatformError } from '../../../core/domain/errors';
import {
  actOnComment, createComment, deleteComment, listComments, privateReply, publicReply,
} from '../../../core/usecases/comments';
import { fromPlatformError } from '../http-errors';
import { bodyFields } from '../input';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue';
import type { OperationInput } from '../catalogue/types';
import * as ops from '../catalogue/comments';

/** The action endpoint names the failure in `error` (spec "Errors"), a network's refusal included (502). */
async function withErrorField(fn: () => Promise<unknown>): Promise<void> {
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
  mount(router, ops.listComments, ns, async (ctx, { query: q }) => {
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

  mount(router, ops.createComment, ns, async (ctx, { body: b }) => {
    bodyFields(ctx);
    const created = await createComment(deps, ctx.state.caller.account, {
      platform: b.platform, user: b.user, message: b.message, commentId: b.comment_id, postId: b.post_id, postUrl: b.post_url,
      attachmentUrl: b.attachment_url, attachmentShareUrl: b.attachment_share_url,
    });
    ctx.body = deps.platforms.get(b.platform)?.descriptor.comments?.createdAnswer === 'result'
      ? { success: true, platform: b.platform, result: { comment_id: created.id } }
      : { success: true, id: created.id, message: `Comment created on ${b.platform}.` };
  });

  const remove = async (ctx: Context & { state: AppState }, { body: b }: Pick<OperationInput<typeof ops.deleteComment>, 'body'>) => {
    bodyFields(ctx);
    await deleteComment(deps, ctx.state.caller.account, { platform: b.platform, user: b.user, commentId: b.comment_id ?? '', postId: b.post_id });
    ctx.body = { success: true, message: `Comment ${b.comment_id} deleted on ${b.platform}.` };
  };
  mount(router, ops.deleteComment, ns, remove);
  mount(router, ops.deleteCommentPost, ns, remove);

  mount(router, ops.commentAction, ns, async (ctx, { body: b }) => {
    bodyFields(ctx);
    await actOnComment(deps, ctx.state.caller.account, {
      platform: b.platform, user: b.user, action: b.action, commentId: b.comment_id, postId: b.post_id, message: b.message, banAuthor: b.ban_author,
    });
    ctx.body = { success: true, platform: b.platform, action: b.action, comment_id: b.comment_id ?? null };
  }, withErrorField);

  mount(router, ops.privateCommentReply, ns, async (ctx, { body: b }) => {
    bodyFields(ctx);
    const sent = await privateReply(deps, ctx.state.caller.account, { platform: b.platform, user: b.user, commentId: b.comment_id, message: b.message, buttons: b.buttons });
    ctx.body = { success: true, platform: b.platform, comment_id: b.comment_id, message_id: sent.messageId, recipient_id: sent.recipientId ?? null };
  });

  mount(router, ops.publicCommentReply, ns, async (ctx, { body: b }) => {
    bodyFields(ctx);
    const created = await publicReply(deps, ctx.state.caller.account, { platform: b.platform, user: b.user, commentId: b.comment_id, message: b.message });
    ctx.body = { success: true, id: created.id, message: `Reply posted under comment ${b.comment_id}.` };
  });
}
