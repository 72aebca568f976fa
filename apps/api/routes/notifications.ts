import type Router from '@koa/router';
import { notFound } from '../../../core/domain/errors';
import { redeliver, sendTestNotification } from '../../../core/usecases/notifications/delivery';
import { listDeliveries } from '../../../core/usecases/notifications/delivery-log';
import { requireAccountPrincipal, type NotificationDeps } from '../../../core/usecases/notifications/deps';
import { deleteProfileWebhook, getProfileWebhook, saveProfileWebhook } from '../../../core/usecases/notifications/profile-webhooks';
import { deleteWebhook, getNotifications, rotateWebhookSecret, saveNotifications } from '../../../core/usecases/notifications/settings';
import { bodyFields, single } from '../input';
import type { AppState } from '../deps';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/notifications';

/**
 * Notification configuration (the spec's "Notification configuration"), the test send and the
 * delivery log. Every route first checks the principal: only the account's own credential may
 * change webhooks (Authentication 6).
 */
export function notificationRoutes(router: Router<AppState>, deps: NotificationDeps, ns: string): void {
  const account = (state: AppState) => {
    requireAccountPrincipal(state.caller);
    return state.caller.account;
  };

  mount(router, ops.getNotifications, ns, async (ctx) => {
    ctx.body = { success: true, notifications: await getNotifications(deps, account(ctx.state)) };
  });
  mount(router, ops.saveNotifications, ns, async (ctx) => {
    ctx.body = { success: true, notifications: await saveNotifications(deps, account(ctx.state), bodyFields(ctx)) };
  });
  mount(router, ops.deleteNotifications, ns, async (ctx) => {
    ctx.body = { success: true, notifications: await deleteWebhook(deps, account(ctx.state)) };
  });
  mount(router, ops.rotateWebhookSecret, ns, async (ctx) => {
    ctx.body = { success: true, webhook_secret: await rotateWebhookSecret(deps, account(ctx.state)) };
  });

  mount(router, ops.getProfileWebhook, ns, async (ctx) => {
    ctx.body = { success: true, ...(await getProfileWebhook(deps, account(ctx.state), single(ctx.query.profile_username))) };
  });
  mount(router, ops.saveProfileWebhook, ns, async (ctx) => {
    ctx.body = { success: true, ...(await saveProfileWebhook(deps, account(ctx.state), bodyFields(ctx))) };
  });
  mount(router, ops.deleteProfileWebhook, ns, async (ctx) => {
    const caller = account(ctx.state);
    const fields = bodyFields(ctx);
    ctx.body = { success: true, ...(await deleteProfileWebhook(deps, caller, fields.profile_username ?? single(ctx.query.profile_username))) };
  });

  mount(router, ops.sendTestNotification, ns, async (ctx) => {
    const results = await sendTestNotification(deps, account(ctx.state));
    ctx.body = { success: true, all_delivered: results.every((r) => r.outcome === 'delivered'), results };
  });
  mount(router, ops.listDeliveries, ns, async (ctx) => {
    ctx.body = { success: true, ...(await listDeliveries(deps, account(ctx.state), Object.fromEntries(Object.entries(ctx.query).map(([k, v]) => [k, single(v)])))) };
  });
  mount(router, ops.redeliverNotification, ns, async (ctx) => {
    const caller = account(ctx.state);
    const id = ctx.params.delivery_id!;
    if (!/^dlv_[0-9a-f]{32}$/.test(id)) throw notFound(`No delivery ${id.slice(0, 64)} in the delivery log.`, 'DELIVERY_NOT_FOUND');
    const attempt = await redeliver(deps, caller, id);
    ctx.body = { success: true, delivered: attempt.outcome === 'delivered', attempt };
  });
}
