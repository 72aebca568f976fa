import type Router from '@koa/router';
import type { Platform } from '../../../core/domain/platforms';
import { completeOAuth, startOAuth } from '../../../core/usecases/oauth-connect';
import { checkId } from '../ids';
import { bodyFields, single } from '../input';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/connections';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const oauthCallbackPath = (ns: string, platform: string) => `/api/${ns}/oauth/${platform}/callback`;

/** POST /oauth/{platform}/start (authenticated): the network's authorize URL for a profile. */
export function oauthStartRoute(router: Router<AppState>, deps: ApiDeps, ns: string, publicBaseUrl: string): void {
  mount(router, ops.startOAuth, ns, async (ctx, { body }) => {
    const platform = ctx.params.platform as Platform;
    bodyFields(ctx);
    const started = await startOAuth(deps, ctx.state.caller.account, platform, {
      profileUsername: body.profile_username,
      ...(body.redirect_url ? { returnUrl: body.redirect_url } : {}),
      callbackUrl: `${publicBaseUrl}${oauthCallbackPath(ns, platform)}`,
    });
    ctx.body = { success: true, platform, ...started };
  });
}

/**
 * GET /oauth/{platform}/callback (no API key: the one-time state is the credential). Sends the
 * end user back to the integrator's redirect_url with `connect_status` (success, cancelled,
 * error) and a stable `error_code`, or shows a short page when there is none.
 */
export function oauthCallbackRoute(router: Router, deps: ApiDeps, ns: string): void {
  mount(router, ops.completeOAuth, ns, async (ctx) => {
    const platform = ctx.params.platform as Platform;
    const q = (name: string) => {
      const v = single(ctx.query[name]);
      return typeof v === 'string' ? v : undefined;
    };
    checkId('state', q('state'));
    const code = q('code');
    const state = q('state');
    const error = q('error');
    const errorDescription = q('error_description');
    const outcome = await completeOAuth(deps, platform, {
      ...(state ? { state } : {}), ...(code ? { code } : {}), ...(error ? { error } : {}), ...(errorDescription ? { errorDescription } : {}),
    });
    if (outcome.returnUrl) {
      const url = new URL(outcome.returnUrl);
      url.searchParams.set('connect_status', outcome.status);
      url.searchParams.set('platform', platform);
      if (outcome.status !== 'success') url.searchParams.set('error_code', outcome.errorCode);
      ctx.redirect(url.toString());
      return;
    }
    ctx.status = outcome.status === 'success' ? 200 : 400;
    ctx.type = 'html';
    const text = outcome.status === 'success'
      ? `${platform} account ${outcome.connection.handle || outcome.connection.displayName} is connected to profile ${outcome.connection.profileUsername}. You can close this window.`
      : `Connecting ${platform} did not work (${outcome.errorCode}): ${outcome.message}`;
    ctx.body = `<!doctype html><meta charset="utf-8"><title>Herald</title><p data-connect-status="${outcome.status}">${escapeHtml(text)}</p>`;
  });
}
