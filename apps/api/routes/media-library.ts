import type Router from '@koa/router';
import { HeraldError, invalidInput, PlatformError } from '../../../core/domain/errors';
import { fromPlatformError } from '../http-errors';
import { listMedia } from '../../../core/usecases/media-library';
import { refuseUnavailablePlatforms, single } from '../input';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue/mount';
import { listMedia as listMediaOperation } from '../catalogue/media-library';

/** The media list answers 400 with `{success:false, error}` (and our message and error_code beside it). */
const refuse = (message: string) => invalidInput(message, { error: message });

function text(value: unknown, name: string): string | undefined {
  const v = single(value);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw refuse(`${name} must be a non-empty text.`);
  return v.trim();
}

/** The page parameters of the networks' media lists (`pageParam`: page_urn, facebook_page_id) the request gives. */
function pageParams(deps: ApiDeps, q: Record<string, unknown>): Record<string, string> {
  const names = new Set(deps.platforms.having('mediaLibrary').flatMap((a) => (a.mediaLibrary.pageParam ? [a.mediaLibrary.pageParam] : [])));
  const out: Record<string, string> = {};
  for (const name of names) {
    if (q[name] !== undefined) out[name] = text(q[name], name)!;
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
  mount(router, listMediaOperation, ns, async (ctx) => {
    const q = ctx.query;
    refuseUnavailablePlatforms(q.platform);
    const platform = text(q.platform, 'platform');
    if (!platform) throw refuse('platform is required (instagram, facebook, threads, bluesky, x, pinterest, tiktok, youtube or linkedin).');
    const user = text(q.user ?? q.profile_username, 'user');
    if (!user) throw refuse('user is required: the profile username whose account is listed.');
    const rawLimit = text(q.limit, 'limit');
    if (rawLimit !== undefined && !/^-?\d+$/.test(rawLimit)) throw refuse(`limit must be a whole number (1-100); got "${rawLimit}".`);
    ctx.body = await withErrorField(() => listMedia(deps, ctx.state.caller.account, {
      platform, user,
      ...(rawLimit !== undefined ? { limit: Number(rawLimit) } : {}),
      ...(q.cursor !== undefined ? { cursor: text(q.cursor, 'cursor') } : {}),
      pages: pageParams(deps, q),
    }), deps.log);
  });
}
