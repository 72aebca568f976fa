import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import { invalidInput } from '../../../core/domain/errors';
import type { MediaKind, Platform } from '../../../core/domain/platforms';
import { finishedAndSucceeded, toUploadView } from '../../../core/domain/upload-view';
import { admitUpload, submitUpload } from '../../../core/usecases/submit-upload';
import { parseScheduledDate } from '../../../core/domain/schedule';
import { cancelScheduledPost, editScheduledPost, listScheduled } from '../../../core/usecases/scheduled-posts';
import { retryFailedPlatforms } from '../../../core/usecases/retry-upload';
import { getQueueSettings, nextQueueSlot, previewQueue, saveQueueSettings } from '../../../core/usecases/queue';
import { removeTempFiles, takeMedia } from '../media-intake';
import { markStagedUsed, stagedMedia } from '../../../core/usecases/media-uploads';
import { getUploadStatus, listUploadHistory } from '../../../core/usecases/read-uploads';
import { StatusReadCache } from '../../../core/usecases/upload-versions';
import { fieldsReadSoFar } from '../body';
import { checkId } from '../ids';
import { bodyFields, list, parse, refuseUnavailablePlatforms, single } from '../input';
import { mount } from '../catalogue/mount';
import type { Operation, OperationInput } from '../catalogue/types';
import * as ops from '../catalogue/uploads';
import { normalizePlatforms, UploadCommonFields } from '../catalogue/uploads';
import type { ApiDeps, AppState } from '../deps';

export { UploadCommonFields } from '../catalogue/uploads';

function header(ctx: Context, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = ctx.get(name);
    if (value) return value;
  }
  return undefined;
}

const ENDPOINTS: Array<{ op: Operation; kind: MediaKind }> = [
  { op: ops.uploadVideo, kind: 'video' },
  { op: ops.uploadPhotos, kind: 'photo' },
  { op: ops.uploadText, kind: 'text' },
  { op: ops.uploadDocument, kind: 'document' },
];

export function uploadRoutes(router: Router<AppState>, deps: ApiDeps & { duplicateWindowMs: number }, ns: string, options: { syncTimeoutMs: number; statusCacheMs: number }): void {
  const { syncTimeoutMs } = options;
  // Status reads are cached briefly (spec: 2-5 s), so clients polling hard cost one database read
  // per upload per window, and only while nothing of the account's uploads changed.
  const statusCache = new StatusReadCache({ ttlMs: options.statusCacheMs, clock: deps.clock, ...(deps.uploadVersions ? { versions: deps.uploadVersions } : {}) });
  for (const endpoint of ENDPOINTS) {
    mount(router, endpoint.op, ns, async (ctx) => {
      try {
        await handleUpload(ctx, endpoint.kind);
      } finally {
        await removeTempFiles(ctx);
      }
    });
  }

  async function handleUpload(ctx: RouterContext<AppState>, kind: MediaKind): Promise<void> {
    // reddit answers first, also when the rest of the body then turns out unreadable (truncated, a file too large).
    const readSoFar = fieldsReadSoFar(ctx);
    refuseUnavailablePlatforms(readSoFar['platform[]'], readSoFar.platform);
    const fields = bodyFields(ctx);
    // A document goes to LinkedIn, the one network that takes documents, unless platform[] says otherwise.
    const body = parse(UploadCommonFields, { ...fields, platform: list(fields['platform[]'] ?? fields.platform) ?? (kind === 'document' ? ['linkedin'] : []) });
    if (body.scheduled_date !== undefined && body.add_to_queue) {
      throw invalidInput('scheduled_date cannot be combined with add_to_queue: send one of them.', { violations: [{ field: 'add_to_queue', message: 'not with scheduled_date' }] });
    }
    const maxPerSlot = single(fields.max_posts_per_slot);
    if (maxPerSlot !== undefined && !body.add_to_queue) {
      throw invalidInput('max_posts_per_slot goes only with add_to_queue=true.', { violations: [{ field: 'max_posts_per_slot', message: 'only with add_to_queue' }] });
    }
    const maxPostsPerSlot = maxPerSlot === undefined ? undefined : Number(maxPerSlot);
    if (maxPostsPerSlot !== undefined && (!Number.isInteger(maxPostsPerSlot) || maxPostsPerSlot < 1)) {
      throw invalidInput('max_posts_per_slot must be a whole number of at least 1.', { violations: [{ field: 'max_posts_per_slot', message: 'whole number ≥ 1' }] });
    }
    const timezone = typeof single(fields.timezone) === 'string' ? String(single(fields.timezone)) : 'UTC';
    const schedule = body.scheduled_date !== undefined
      ? { at: parseScheduledDate(body.scheduled_date, timezone, deps.clock.now()), timezone }
      : undefined;
    const platforms = normalizePlatforms(body.platform);
    const requestId = body.request_id ?? header(ctx, 'Idempotency-Key', 'X-Idempotency-Key', 'X-Request-Id');
    const externalId = body.external_id ?? header(ctx, 'X-External-Id');
    checkId('request_id', requestId);
    checkId('external_id', externalId);
    // Admission runs once, before any media is stored; a repeat of a known request answers with it.
    const admission = await admitUpload(deps, ctx.state.caller.account, { kind, platforms, profileUsername: body.user, ...(requestId ? { requestId } : {}) });
    // Asynchronous, scheduled and queued requests answer before URL media is downloaded.
    const deferUrls = Boolean(body.async_upload || schedule || body.add_to_queue);
    const account = ctx.state.caller.account;
    const staged = deps.mediaUploads;
    const { media, fileFields, stagedIds } = admission.existing ? { media: [], fileFields: {}, stagedIds: [] } : await takeMedia(deps, ctx, kind, fields, {
      deferUrls, ...(staged ? { staged: (id, field, takes) => stagedMedia(staged, account, id, field, takes) } : {}),
    });

    const { upload, finished } = await submitUpload(deps, ctx.state.caller.account, {
      kind: kind,
      profileUsername: body.user,
      platforms,
      title: body.title ?? '',
      ...(body.description !== undefined ? { description: body.description } : {}),
      media,
      fields: { ...fields, ...fileFields },
      ...(requestId ? { requestId } : {}),
      ...(externalId ? { externalId } : {}),
      ...(schedule ? { schedule } : {}),
      ...(body.add_to_queue ? { queue: maxPostsPerSlot !== undefined ? { maxPostsPerSlot } : {} } : {}),
      async: body.async_upload ?? false,
      warnings: [],
      syncTimeoutMs,
    }, admission);
    // The post names the stored bytes by media id: its staged uploads no longer expire with their bytes.
    if (staged && stagedIds.length) await markStagedUsed(staged, account, stagedIds, upload.requestId);
    const view = toUploadView(upload);
    if (upload.scheduledFor) {
      ctx.status = 202;
      ctx.body = {
        success: true, ...view, job_id: upload.jobId, scheduled_date: upload.scheduledFor.toISOString(), timezone: upload.timezone,
        ...(upload.queueSlot ? { queue_slot: upload.queueSlot.toISOString() } : {}),
      };
      return;
    }
    if (finished) {
      ctx.body = { success: true, ...view };
      return;
    }
    ctx.status = 202;
    ctx.body = {
      success: true,
      ...view,
      message: `Accepted. Poll GET /api/${ns}/status?request_id=${encodeURIComponent(upload.requestId)} for the results.`,
    };
  }

  mount(router, ops.getUploadStatus, ns, async (ctx) => {
    const requestId = single(ctx.query.request_id);
    const jobId = single(ctx.query.job_id);
    const account = ctx.state.caller.account;
    const view = await statusCache.get(account.id, `${String(requestId)}|${String(jobId)}`, () => getUploadStatus(deps.storage, account, {
      ...(typeof requestId === 'string' && requestId ? { requestId } : {}),
      ...(typeof jobId === 'string' && jobId ? { jobId } : {}),
    }));
    // Not kept by the client: its next read after a write of its own must reach us.
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.body = { success: finishedAndSucceeded(view), ...view };
  });

  mount(router, ops.listUploadHistory, ns, async (ctx, { query: q }) => {
    ctx.body = {
      success: true,
      ...(await listUploadHistory(deps.storage, ctx.state.caller.account, {
        page: q.page,
        limit: q.limit,
        ...(q.platform ? { platform: q.platform as Platform } : {}),
        ...(q.status ? { status: q.status } : {}),
        ...(q.profile_username ? { profileUsername: q.profile_username } : {}),
        ...(q.start ? { start: q.start } : {}),
        ...(q.end ? { end: q.end } : {}),
        ...(q.request_id ? { requestId: q.request_id } : {}),
        ...(q.job_id ? { jobId: q.job_id } : {}),
        ...(q.external_id ? { externalId: q.external_id } : {}),
        ...(q.cursor ? { cursor: q.cursor } : {}),
      })),
    };
  });

  mount(router, ops.listScheduledPosts, ns, async (ctx, { query: q }) => {
    ctx.body = { success: true, ...(await listScheduled(deps, ctx.state.caller.account, { limit: q.limit, ...(q.cursor ? { cursor: q.cursor } : {}) })) };
  });

  mount(router, ops.cancelScheduledPost, ns, async (ctx) => {
    const cancelled = await cancelScheduledPost(deps, ctx.state.caller.account, ctx.params.job_id!);
    ctx.body = { success: true, message: `Scheduled post ${cancelled.job_id} cancelled; it will not be published.`, ...cancelled };
  });

  // Edit a scheduled post: JSON body with scheduled_date, timezone, title, description and any
  // per-platform field (<platform>_title, the networks' settings), merged over the original request.
  const edit = async (ctx: RouterContext<AppState>, input: Pick<OperationInput<typeof ops.editScheduledPost>, 'body'>) => {
    bodyFields(ctx);
    const { scheduled_date, timezone, title, description, ...fields } = input.body;
    const edited = await editScheduledPost(deps, ctx.state.caller.account, ctx.params.job_id!, {
      ...(scheduled_date !== undefined ? { scheduled_date } : {}),
      ...(timezone !== undefined ? { timezone } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(description !== undefined ? { description } : {}),
      fields,
    });
    ctx.body = { success: true, ...edited };
  };
  mount(router, ops.editScheduledPost, ns, edit);
  mount(router, ops.editScheduledPostPost, ns, edit);

  // Sends the failed platforms of a finished upload again with the original media and settings.
  mount(router, ops.retryUpload, ns, async (ctx) => {
    const fields = bodyFields(ctx);
    const requestId = single(fields.request_id);
    const jobId = single(fields.job_id);
    const { upload, retried } = await retryFailedPlatforms(deps, ctx.state.caller.account, {
      ...(typeof requestId === 'string' && requestId ? { requestId } : {}),
      ...(typeof jobId === 'string' && jobId ? { jobId } : {}),
    });
    ctx.status = 202;
    ctx.body = {
      success: true,
      ...toUploadView(upload),
      retried_platforms: retried,
      message: `Retrying ${retried.join(', ')}. Poll GET /api/${ns}/status?request_id=${encodeURIComponent(upload.requestId)} for the results.`,
    };
  });

  // The posting queue of a profile: weekly slots in a time zone, posts per slot, a preview and the
  // next free slot. Settings are read in our per-day layout and in the flat one side by side.
  const profileQuery = (ctx: RouterContext<AppState>) => {
    const value = single(ctx.query.profile_username ?? ctx.query.username);
    if (typeof value !== 'string' || !value) throw invalidInput('profile_username is required as a query parameter.', { violations: [{ field: 'profile_username', message: 'required' }] });
    return value;
  };
  mount(router, ops.getQueueSettings, ns, async (ctx) => {
    ctx.body = { success: true, settings: await getQueueSettings(deps, ctx.state.caller.account, profileQuery(ctx)) };
  });
  mount(router, ops.saveQueueSettings, ns, async (ctx) => {
    ctx.body = { success: true, settings: await saveQueueSettings(deps, ctx.state.caller.account, bodyFields(ctx)) };
  });
  mount(router, ops.previewQueue, ns, async (ctx) => {
    const count = Math.min(100, Math.max(1, Number(single(ctx.query.count) ?? 10) || 10));
    ctx.body = { success: true, slots: await previewQueue(deps, ctx.state.caller.account, profileQuery(ctx), count) };
  });
  mount(router, ops.nextQueueSlot, ns, async (ctx) => {
    ctx.body = { success: true, ...(await nextQueueSlot(deps, ctx.state.caller.account, profileQuery(ctx))) };
  });
}
