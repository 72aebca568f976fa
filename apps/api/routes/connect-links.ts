import type Router from '@koa/router';
import { HeraldError } from '../../../core/domain/errors';
import type { ConnectStorage } from '../../../core/ports/connect-storage';
import {
  generateConnectLink, getPreferences, setPreferences, validateConnectToken, validateOwnConnectToken, type ConnectLinkOptions,
} from '../../../core/usecases/connect-links';
import { credentialOf } from '../../../core/usecases/authenticate';
import { bodyFields } from '../input';
import { readBody } from '../body';
import { checkIdFields } from '../ids';
import { checkStorable } from '../storable';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/connections';

type ConnectApiDeps = ApiDeps & { connect: ConnectStorage };

/**
 * GET /users/validate-jwt: its credential is the connect token (`Authorization: Bearer`), not an
 * API key, so it is registered before the API-key authentication. A token presented and refused
 * counts toward the client address's authentication-failure block like a wrong API key.
 */
export function validateJwtRoute(open: Router, deps: ConnectApiDeps, ns: string): void {
  mount(open, ops.validateConnectToken, ns, async (ctx) => {
    // Without a token there is nothing to count: answered 401 without touching the address's record.
    if (!credentialOf(ctx.get('Authorization'), 'Bearer')) {
      ctx.body = await validateConnectToken(deps, ctx.get('Authorization'));
      return;
    }
    const guard = await deps.guard.check(ctx.ip);
    if (guard.blockedMs > 0) {
      const seconds = Math.max(1, Math.ceil(guard.blockedMs / 1000));
      throw new HeraldError('too_many_requests', `Too many failed authentication attempts from this address: blocked for ${seconds} more seconds.`, 'auth_blocked', { retry_after_seconds: seconds });
    }
    try {
      ctx.body = await validateConnectToken(deps, ctx.get('Authorization'));
    } catch (err) {
      if (err instanceof HeraldError && err.kind === 'unauthenticated') await deps.guard.recordFailure(ctx.ip);
      throw err;
    }
    if (guard.failures > 0 && 'success' in (ctx.body as object)) await deps.guard.recordSuccess(ctx.ip);
  });
}

/** POST /users/generate-jwt, POST /users/validate-jwt `{jwt}` and GET/POST /users/preferences (API key). */
export function connectLinkRoutes(router: Router<AppState>, deps: ConnectApiDeps, ns: string, options: ConnectLinkOptions): void {
  mount(router, ops.generateConnectLink, ns, async (ctx) => {
    // ui_labels keys contain dots by the spec (`connect.title`): the store keeps them as entries,
    // so only that object is exempt from the field-name rule (NUL is still refused).
    const { ui_labels: labels, ...fields } = readBody(ctx);
    checkIdFields(fields);
    checkStorable(fields);
    checkStorable(labels, { names: false }, 'ui_labels');
    ctx.body = { success: true, ...(await generateConnectLink(deps, options, ctx.state.caller.account, { ...fields, ...(labels !== undefined ? { ui_labels: labels } : {}) })) };
  });
  mount(router, ops.validateConnectTokenPost, ns, async (ctx, { body }) => {
    ctx.body = await validateOwnConnectToken(deps, ctx.state.caller.account, body.jwt);
  });
  mount(router, ops.getPreferences, ns, async (ctx) => {
    ctx.body = { success: true, ...(await getPreferences(deps, ctx.state.caller.account)) };
  });
  mount(router, ops.setPreferences, ns, async (ctx) => {
    ctx.body = { success: true, ...(await setPreferences(deps, ctx.state.caller.account, bodyFields(ctx))) };
  });
}
