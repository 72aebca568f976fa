import type { IncomingMessage } from 'node:http';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import {
  completeMediaUpload, createMediaUpload, deleteMediaUpload, getMediaUpload, mediaUploadOffset, receiveMediaUploadBytes, type MediaUploadDeps,
} from '../../../core/usecases/media-uploads';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/media-uploads';
import type { AppState } from '../deps';

/** Past this many unread bytes a refused PUT's connection is closed instead of read to its end. */
const DISCARD_LIMIT = 64 * 1024 * 1024;

/**
 * Reads what is left of a refused PUT's body and drops it, so the client (still sending) gets
 * the answer on a connection that stays sound; a body much longer than that is cut instead.
 */
async function discardRest(req: IncomingMessage): Promise<void> {
  if (req.readableEnded || req.destroyed) return;
  await new Promise<void>((resolve) => {
    let seen = 0;
    const done = () => { req.off('data', count); resolve(); };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DISCARD_LIMIT) {
        req.socket.end();
        done();
      }
    };
    // The staging write read the body through its async iterator, whose 'readable' listener would keep it paused.
    req.removeAllListeners('readable');
    req.on('data', count).once('end', done).once('error', done).once('close', done);
    req.resume();
  });
}

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
    try {
      ctx.body = {
        success: true,
        ...(await receiveMediaUploadBytes(deps, {
          ...signature(ctx as RouterContext), body: ctx.req,
          ...(range ? { contentRange: range } : {}),
          ...(/^\d+$/.test(declared) ? { length: Number(declared) } : {}),
        })),
      };
    } catch (err) {
      await discardRest(ctx.req);
      throw err;
    }
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
