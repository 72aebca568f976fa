import type Router from '@koa/router';
import { createProfile, deleteProfile, getProfile, listProfiles } from '../../../core/usecases/profiles';
import { connectWithCredentials } from '../../../core/usecases/connect-with-credentials';
import type { Platform } from '../../../core/domain/platforms';
import { invalidInput } from '../../../core/domain/errors';
import { bodyFields, single } from '../input';
import { isReservedProfileUsername, PIN_KINDS, type PinKind } from '../../../core/domain/profile';
import { deletePin, getPin, setPin } from '../../../core/usecases/pins';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/profiles';
import type { ApiDeps, AppState } from '../deps';
import * as connectionOps from '../catalogue/connections';

export function profileRoutes(router: Router<AppState>, deps: ApiDeps, ns: string): void {
  mount(router, ops.createProfile, ns, async (ctx) => {
    const profile = await createProfile(deps, ctx.state.caller.account, { username: bodyFields(ctx).username });
    ctx.status = 201;
    ctx.body = { success: true, profile };
  });

  mount(router, ops.listProfiles, ns, async (ctx) => {
    ctx.body = { success: true, ...(await listProfiles(deps, ctx.state.caller.account)) };
  });

  mount(router, ops.deleteProfile, ns, async (ctx) => {
    const input = { username: bodyFields(ctx).username };
    await deleteProfile(deps, ctx.state.caller.account, input);
    ctx.body = { success: true, message: `Profile "${String(input.username)}" deleted.` };
  });

  // Manual credential connections: discord, telegram and bluesky today; reddit answers 503.
  mount(router, connectionOps.connectWithCredentials, ns, async (ctx) => {
    const platform = ctx.params.platform as Platform;
    const connection = await connectWithCredentials(deps, ctx.state.caller.account, platform, bodyFields(ctx));
    ctx.body = {
      success: true,
      message: `${platform} account "${connection.displayName}" connected to profile "${connection.profileUsername}".`,
    };
  });

  // Pins: a page or location pinned to a profile wins over the request parameter when publishing.
  for (const kind of Object.keys(PIN_KINDS) as PinKind[]) {
    const [get, set, remove] = ops.PIN_OPERATIONS[kind];
    const profileOf = (value: unknown) => {
      const v = single(value);
      if (typeof v !== 'string' || !v) throw invalidInput('profile_username is required.');
      return v;
    };
    mount(router, get, ns, async (ctx) => {
      ctx.body = { success: true, ...(await getPin(deps.storage, ctx.state.caller.account, kind, profileOf(ctx.query.profile_username))) };
    });
    mount(router, set, ns, async (ctx) => {
      ctx.body = { success: true, ...(await setPin(deps.storage, ctx.state.caller.account, kind, bodyFields(ctx))) };
    });
    mount(router, remove, ns, async (ctx) => {
      ctx.body = { success: true, ...(await deletePin(deps.storage, ctx.state.caller.account, kind, profileOf(bodyFields(ctx).profile_username ?? ctx.query.profile_username))) };
    });
  }
}

/**
 * GET /users/{username}, registered after every other route: the fixed `/users/<word>` paths
 * (pins, and those later issues add) come first, and a reserved word is never looked up as a
 * profile even when its own route does not exist yet.
 */
export function profileByUsernameRoute(router: Router<AppState>, deps: ApiDeps, ns: string): void {
  mount(router, ops.getProfile, ns, async (ctx, _input, next) => {
    if (isReservedProfileUsername(ctx.params.username!)) return next();
    ctx.body = { success: true, profile: await getProfile(deps, ctx.state.caller.account, ctx.params.username!) };
  });
}
