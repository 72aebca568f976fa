import type Router from '@koa/router';
import { HeraldError, PlatformError } from '../../../core/domain/errors';
import { fromPlatformError } from '../http-errors';
import { listMedia } from '../../../core/usecases/media-library';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue/mount';
import { listMedia as listMediaOperation } from '../catalogue/media-library';

/**
 * The page parameters of the networks' media lists (descriptors' `mediaLibrary.pageParam`:
 * page_urn, facebook_page_id) the request gives, as the edge checked them (non-empty text).
 */
function pageParams(deps: ApiDeps, q: Record<string, unknown>): Record<string, string> {
  const names = new Set(deps.platforms.having('mediaLibrary').flatMap((a) => (a.descriptor.mediaLibrary?.pageParam ? [a.descriptor.mediaLibrary.pageParam.name] : [])));
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = q[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** Every media-list error body carries `error` (the spec's `{success:false, error}`) beside message and error_code. */
async function withErrorField<T>(run: () => Promise<T>, log: ApiDeps['log']): Promise<T> {
  try {
    return await run();
  } catch (raw) {
    let err = raw instanceof PlatformError ? fromPlatformError(raw, new Date()) : raw;
    if (!(err instanceof HeraldError)) {
      log('unhandled error', { path: 'GET /media', error: (raw as Error)?.stack ?? String(raw) });
      err = new HeraldError('internal', 'Internal error. It was logged; try again later.');
    }
    const e = err as HeraldError;
    if (e.details.error === undefined) throw new HeraldError(e.kind, e.message, e.errorCode, { ...e.details, error: e.message });
    throw e;
  }
}

/**
 * `GET /media?platform=&user=&limit=&cursor=&page_urn=`: recent published media of the profile's
 * connected account (core/usecases/media-library.ts). reddit answers 503 first, like every call
 * naming it.
 */
export function mediaLibraryRoutes(router: Router<AppState>, deps: ApiDeps, ns: string): void {
  mount(router, listMediaOperation, ns, async (ctx, { query: q }) => {
    ctx.body = await withErrorField(() => listMedia(deps, ctx.state.caller.account, {
      platform: q.platform, user: q.user,
      ...(q.limit !== undefined ? { limit: q.limit } : {}),
      ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
      pages: pageParams(deps, q),
    }), deps.log);
  });
}
