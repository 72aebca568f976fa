import type Router from '@koa/router';
import type { Platform } from '../../../core/domain/platforms';
import { disconnectAccount } from '../../../core/usecases/disconnect-account';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/connections';

/**
 * DELETE /users/{username}/social-accounts/{platform}: manual disconnect. The connection and its
 * credentials are deleted, `social_account_disconnected` (reason `manual_disconnect`) goes to the
 * outbox once, the account's refresh-ahead and pause workflows end. 200
 * `{success, message, profile_username, platform, status: 'disconnected'}`; 404
 * `PROFILE_NOT_FOUND` / `ACCOUNT_NOT_CONNECTED`; 400 `platform_not_supported`; reddit 503.
 */
export function disconnectRoute(router: Router<AppState>, deps: ApiDeps, ns: string): void {
  mount(router, ops.disconnectAccount, ns, async (ctx) => {
    const platform = ctx.params.platform as Platform;
    const username = ctx.params.username!;
    const { connection } = await disconnectAccount(deps, {
      accountId: ctx.state.caller.account.id, profileUsername: username, platform, reason: 'manual_disconnect',
    });
    ctx.body = {
      success: true,
      message: `${platform} account "${connection.handle || connection.displayName}" disconnected from profile "${username}".`,
      profile_username: username,
      platform,
      status: 'disconnected',
    };
  });
}
