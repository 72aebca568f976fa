import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import {
  completeMediaUpload, createMediaUpload, deleteMediaUpload, getMediaUpload, mediaUploadOffset, receiveMediaUploadBytes, type MediaUploadDeps,
} from '../../../core/usecases/media-uploads';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/media-uploads';
import type { AppState } from '../deps';

const signature = (ctx: RouterContext) => ({
  id: ctx.params.upload_id!,
  exp: typeof ctx.query.exp === 'string' ? ctx.query.exp : undefined,
  sig: typeof ctx.query.sig === 'string' ? ctx.query.sig : undefined,
});

/**
 * The signed upload URL (no API key: its signature is the credential). Mounted where no body
 * reader runs: the request stream goes to the staging file as it arrives, never into memory.
 */
export function mediaUploadByteRoutes(open: Router, deps: MediaUploadDeps, ns: string): void {
  mount<typeof ops.putMediaUploadBytes, unknown>(open, ops.putMediaUploadBytes, ns, async (ctx) => {
    const declared = ctx.get('Content-Length');
    const range = ctx.get('Content-Range');
    ctx.body = {
      success: true,
      ...(await receiveMediaUploadBytes(deps, {
        ...signature(ctx as RouterContext), body: ctx.req,
        ...(range ? { contentRange: range } : {}),
        ...(/^\d+$/.test(declared) ? { length: Number(declared) } : {}),
      })),
    };
  });
  // GET and, through Koa's router, HEAD: HEAD answers the same headers without the body.
  mount<typeof ops.getMediaUploadOffset, unknown>(open, ops.getMediaUploadOffset, ns, async (ctx) => {
    const offset = await mediaUploadOffset(deps, signature(ctx as RouterContext));
    ctx.set('Upload-Offset', String(offset.received_bytes));
    ctx.set('Cache-Control', 'no-store');
    if (offset.received_bytes > 0) ctx.set('Range', `bytes=0-${offset.received_bytes - 1}`);
    ctx.body = { success: true, ...offset };
  });
}

export function mediaUploadRoutes(router: Router<AppState>, deps: MediaUploadDeps, ns: string): void {
  mount(router, ops.createMediaUpload, ns, async (ctx, { body }) => {
    ctx.status = 201;
    ctx.body = { success: true, ...(await createMediaUpload(deps, ctx.state.caller.account, body)) };
  });
  mount(router, ops.completeMediaUpload, ns, async (ctx) => {
    ctx.body = { success: true, ...(await completeMediaUpload(deps, ctx.state.caller.account, ctx.params.upload_id!)) };
  });
  mount(router, ops.getMediaUpload, ns, async (ctx, { query }) => {
    ctx.body = { success: true, ...(await getMediaUpload(deps, ctx.state.caller.account, ctx.params.upload_id!, { includeUrl: query.include_url === true })) };
  });
  mount(router, ops.deleteMediaUpload, ns, async (ctx) => {
    ctx.body = { success: true, ...(await deleteMediaUpload(deps, ctx.state.caller.account, ctx.params.upload_id!)) };
  });
}
