import { createHmac, timingSafeEqual } from 'node:crypto';
import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import type { Logger } from 'pino';
import type { Metrics } from '../../core/ports/metrics';
import { observeHttp } from '../shared/http-observe';
import { HeraldError } from '../../core/domain/errors';
import { isPlatform, type Platform } from '../../core/domain/platforms';
import { PIN_KINDS, type PinKind } from '../../core/domain/profile';
import { isTimeZoneName } from '../../core/domain/schedule';
import type { ConnectStorage } from '../../core/ports/connect-storage';
import type { Storage } from '../../core/ports/storage';
import { calendarPosts, cancelProfilePost, moveProfilePost } from '../../core/usecases/connect-calendar';
import {
  connectablePlatforms, getPreferences, openConnectLink, resumeConnectSession, type ConnectPrincipal,
} from '../../core/usecases/connect-links';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { disconnectAccount } from '../../core/usecases/disconnect-account';
import { startOAuth, type OAuthDeps } from '../../core/usecases/oauth-connect';
import { listLookup } from '../../core/usecases/lookups';
import { setPin } from '../../core/usecases/pins';
import type { SubmitDeps } from '../../core/usecases/submit-upload';
import { calendarGrid, dayNumber, parseIsoDay, todayIn, type CalendarView } from './calendar';
import { html, layout, PAGE_SECURITY_HEADERS } from './html';
import { isLabelKey, pickLanguage, translator, type LabelKey, type Translate } from './i18n';
import { calendarPage, connectPage, messagePage, mobileContinuePage, type Notice, type PageContext, type PlatformRow } from './pages';

export type WebDeps = OAuthDeps & SubmitDeps & {
  storage: Storage;
  connect: ConnectStorage;
  hasher: { hash(text: string): string };
  log: (message: string, fields: Record<string, unknown>) => void;
};

export interface WebOptions {
  /** The page's own address as browsers reach it (OAuth returns here). */
  publicBaseUrl: string;
  /** The API's public address: the networks' OAuth callback is the API's. */
  apiPublicBaseUrl: string;
  namespace: string;
  /** Key of the forms' CSRF tokens (HMAC of the session). */
  csrfKey: string;
  /** Reverse proxies in front whose X-Forwarded-For entries are trusted (HERALD_TRUST_PROXY); 0: none. */
  trustProxy: number;
  /** One log line, metrics and a span per request (apps/shared/http-observe.ts), as on the API. */
  telemetry?: { logger: Logger; metrics: Metrics };
}

export const SESSION_COOKIE = 'herald_connect';
const FORM_MAX_BYTES = 64 * 1024;
const MOBILE = /Android|iPhone|iPad|iPod|Mobile|Windows Phone/i;

class PageError extends Error {
  constructor(readonly status: number, readonly titleKey: LabelKey, readonly textKey: LabelKey) {
    super(titleKey);
  }
}

async function readForm(ctx: Context): Promise<Record<string, string>> {
  if (!ctx.is('application/x-www-form-urlencoded')) throw new HeraldError('invalid_input', 'Forms are sent urlencoded.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > FORM_MAX_BYTES) throw new HeraldError('invalid_input', 'The form is too large.');
    chunks.push(chunk as Buffer);
  }
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) out[k] = v.replace(/\u0000/g, '');
  return out;
}

const single = (v: unknown): string | undefined => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);

export function createWeb(deps: WebDeps, options: WebOptions): Koa {
  const app = new Koa({ proxy: options.trustProxy > 0, maxIpsCount: options.trustProxy });
  // First, so it sees every answer.
  if (options.telemetry) app.use(observeHttp(options.telemetry));
  const secureCookies = options.publicBaseUrl.startsWith('https://');

  const csrfOf = (principal: ConnectPrincipal) => createHmac('sha256', options.csrfKey).update(`csrf:${principal.session.sessionHash}`).digest('base64url');
  const baseT = (ctx: Context): { lang: string; t: Translate } => {
    const lang = pickLanguage(undefined, ctx.get('Accept-Language'));
    return { lang, t: translator(lang) };
  };

  /** The page's texts for one session: ui_labels (known keys only), then the language, then English. */
  function pageContext(ctx: Context, principal: ConnectPrincipal): PageContext {
    const lang = pickLanguage(principal.link.settings.language, ctx.get('Accept-Language'));
    const overrides = principal.profile.uiLabels ?? {};
    const t = translator(lang, overrides);
    const label = (key: string, fallback: string) => (Object.prototype.hasOwnProperty.call(overrides, key) ? overrides[key]! : fallback);
    return { lang, t, label, settings: principal.link.settings, csrf: csrfOf(principal) };
  }

  const allowedPlatforms = (principal: ConnectPrincipal): Platform[] => {
    const connectable = connectablePlatforms(deps.platforms);
    const chosen = principal.link.settings.platforms;
    return chosen ? chosen.filter((p) => connectable.includes(p)) : connectable;
  };
  const platformName = (p: Platform) => deps.platforms.get(p)?.descriptor.displayName ?? p;

  app.use(async (ctx, next) => {
    for (const [k, v] of Object.entries(PAGE_SECURITY_HEADERS)) ctx.set(k, v);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new PageError(404, 'link.invalid.title', 'link.invalid.text');
    } catch (err) {
      const { lang, t } = baseT(ctx);
      ctx.type = 'html';
      if (err instanceof PageError) {
        ctx.status = err.status;
        ctx.body = messagePage(lang, t, err.titleKey, err.textKey);
        return;
      }
      const status = err instanceof HeraldError ? ({ invalid_input: 400, unauthenticated: 401, forbidden: 403, not_found: 404, conflict: 409, too_many_requests: 429 } as Record<string, number>)[err.kind] ?? 502 : 500;
      if (status === 500) deps.log('web: unhandled error', { path: ctx.path, error: (err as Error).stack ?? String(err) });
      ctx.status = status;
      const text = t('error.generic', { message: status === 500 ? 'internal error' : (err as Error).message });
      ctx.body = layout({ lang, title: text, body: html`<p class="notice bad" role="alert" data-page="error">${text}</p><p><a class="button" href="/connect">${t('nav.accounts')}</a></p>` });
    }
  });

  const router = new Router();
  router.get('/healthz', async (ctx) => {
    ctx.type = 'json';
    ctx.body = { success: true };
  });

  /** A link opened with its token: exchanged once for the session cookie, then the token leaves the address bar. */
  async function tokenEntry(ctx: Context, target: string): Promise<boolean> {
    const token = single(ctx.query.token);
    if (token === undefined) return false;
    const opening = await openConnectLink(deps, token.slice(0, 200), ctx.cookies.get(SESSION_COOKIE));
    switch (opening.kind) {
      case 'opened':
        ctx.cookies.set(SESSION_COOKIE, opening.sessionSecret, {
          httpOnly: true, sameSite: 'lax', path: '/connect', expires: opening.link.expiresAt, secure: secureCookies, overwrite: true,
        });
        ctx.status = 303;
        ctx.redirect(target);
        return true;
      case 'resumed':
        ctx.status = 303;
        ctx.redirect(target);
        return true;
      case 'used': throw new PageError(410, 'link.used.title', 'link.used.text');
      case 'expired': throw new PageError(410, 'link.expired.title', 'link.expired.text');
      case 'blocked': throw new PageError(403, 'link.blocked.title', 'link.blocked.text');
      default: throw new PageError(404, 'link.invalid.title', 'link.invalid.text');
    }
  }

  async function principalOf(ctx: Context): Promise<ConnectPrincipal> {
    const principal = await resumeConnectSession(deps, ctx.cookies.get(SESSION_COOKIE));
    if (!principal) throw new PageError(401, 'session.missing.title', 'session.missing.text');
    return principal;
  }

  /** A form post: a live session, its CSRF token, and (for every edit) a link that allows edits. */
  async function formPost(ctx: Context, opts: { edit: boolean }): Promise<{ principal: ConnectPrincipal; form: Record<string, string> }> {
    const principal = await principalOf(ctx);
    const form = await readForm(ctx);
    const expected = Buffer.from(csrfOf(principal));
    const got = Buffer.from(form._csrf ?? '');
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) throw new PageError(403, 'error.csrf', 'error.csrf');
    if (opts.edit && principal.link.settings.readonlyCalendar) throw new HeraldError('forbidden', 'This link shows the calendar only.');
    return { principal, form };
  }

  const platformParam = (ctx: Context, principal: ConnectPrincipal): Platform => {
    const p = ctx.params.platform ?? '';
    if (!isPlatform(p) || !allowedPlatforms(principal).includes(p)) throw new HeraldError('forbidden', `${p.slice(0, 40)} cannot be connected with this link.`);
    return p;
  };

  /**
   * The pages or locations a connected account can pin, from its lookup; undefined when the
   * lookup fails (the page then offers the text field, so a network hiccup never hides the pin).
   */
  async function pinChoices(principal: ConnectPrincipal, platform: Platform, lookup: string): Promise<Array<{ id: string; name: string }> | undefined> {
    try {
      const items = await listLookup(deps, principal.account, platform, lookup, principal.profile.username);
      return items.map((i) => ({ id: i.id, name: i.name }));
    } catch (err) {
      deps.log('web: pin lookup failed', { platform, error: (err as Error).message });
      return undefined;
    }
  }

  async function rows(principal: ConnectPrincipal, refusal?: { platform: Platform; message: string }): Promise<PlatformRow[]> {
    const connections = await deps.storage.connectedAccounts.listByProfile(principal.account.id, principal.profile.username);
    const built = allowedPlatforms(principal).map(async (id): Promise<PlatformRow[]> => {
      const adapter = deps.platforms.get(id);
      if (!adapter) return [];
      const connection = connections.find((c) => c.platform === id && c.status !== 'disconnected');
      const pin = adapter.descriptor.pin?.kind;
      const lookup = adapter.descriptor.pin?.lookup;
      const choices = pin && lookup && connection?.status === 'connected' ? await pinChoices(principal, id, lookup) : undefined;
      return [{
        descriptor: adapter.descriptor,
        ...(connection ? { connection } : {}),
        ...(pin ? { pinned: principal.profile.pins?.[PIN_KINDS[pin].field] ?? null } : {}),
        ...(choices ? { choices } : {}),
        ...(refusal?.platform === id ? { refusal: refusal.message } : {}),
      }];
    });
    return (await Promise.all(built)).flat();
  }

  /** The outcome a redirect back carries (the API's OAuth callback: connect_status, platform, error_code; ours: done). */
  function noticeOf(ctx: Context, t: Translate): Notice | undefined {
    const p = single(ctx.query.platform);
    const platform = p && isPlatform(p) ? platformName(p) : '';
    const status = single(ctx.query.connect_status);
    if (status === 'success') return { kind: 'ok', text: t('notice.connected', { platform }) };
    if (status === 'cancelled') return { kind: 'bad', text: t('notice.cancelled', { platform }) };
    if (status === 'error') return { kind: 'bad', text: t('notice.error', { platform, code: (single(ctx.query.error_code) ?? 'error').slice(0, 80) }) };
    const done = single(ctx.query.done);
    if (done === 'disconnected') return { kind: 'ok', text: t('notice.disconnected', { platform }) };
    if (done === 'pinned') return { kind: 'ok', text: t('notice.pinned') };
    if (done === 'moved') return { kind: 'ok', text: t('calendar.moved') };
    if (done === 'cancelled') return { kind: 'ok', text: t('calendar.cancelled') };
    return undefined;
  }

  const showCalendar = (p: ConnectPrincipal) => p.link.settings.showCalendar || p.link.settings.readonlyCalendar;

  router.get('/connect', async (ctx) => {
    if (await tokenEntry(ctx, '/connect')) return;
    const principal = await principalOf(ctx);
    if (principal.link.settings.readonlyCalendar) {
      ctx.status = 303;
      ctx.redirect('/connect/calendar');
      return;
    }
    const page = pageContext(ctx, principal);
    ctx.type = 'html';
    ctx.body = connectPage(page, await rows(principal), noticeOf(ctx, page.t), showCalendar(principal));
  });

  router.post('/connect/oauth/:platform', async (ctx) => {
    const { principal } = await formPost(ctx, { edit: true });
    const platform = platformParam(ctx, principal);
    const started = await startOAuth(deps, principal.account, platform, {
      profileUsername: principal.profile.username,
      returnUrl: `${options.publicBaseUrl}/connect`,
      callbackUrl: `${options.apiPublicBaseUrl}/api/${options.namespace}/oauth/${platform}/callback`,
    });
    if (MOBILE.test(ctx.get('User-Agent'))) {
      ctx.type = 'html';
      ctx.body = mobileContinuePage(pageContext(ctx, principal), platformName(platform), started.authorize_url);
      return;
    }
    ctx.status = 303;
    ctx.redirect(started.authorize_url);
  });

  router.post('/connect/credentials/:platform', async (ctx) => {
    const { principal, form } = await formPost(ctx, { edit: true });
    const platform = platformParam(ctx, principal);
    const { _csrf, ...fields } = form;
    void _csrf;
    try {
      await connectWithCredentials(deps, principal.account, platform, { ...fields, profile_username: principal.profile.username });
    } catch (err) {
      if (!(err instanceof HeraldError)) throw err;
      const page = pageContext(ctx, principal);
      ctx.status = err.kind === 'invalid_input' ? 400 : 502;
      ctx.type = 'html';
      ctx.body = connectPage(page, await rows(principal, { platform, message: err.message }), undefined, showCalendar(principal));
      return;
    }
    ctx.status = 303;
    ctx.redirect(`/connect?connect_status=success&platform=${platform}`);
  });

  router.post('/connect/disconnect/:platform', async (ctx) => {
    const { principal } = await formPost(ctx, { edit: true });
    const platform = platformParam(ctx, principal);
    await disconnectAccount(deps, { accountId: principal.account.id, profileUsername: principal.profile.username, platform, reason: 'manual_disconnect' });
    ctx.status = 303;
    ctx.redirect(`/connect?done=disconnected&platform=${platform}`);
  });

  router.post('/connect/pin/:kind', async (ctx) => {
    const { principal, form } = await formPost(ctx, { edit: true });
    const kind = ctx.params.kind as PinKind;
    if (!Object.prototype.hasOwnProperty.call(PIN_KINDS, kind)) throw new HeraldError('not_found', 'No such pin.');
    const input = PIN_KINDS[kind].input;
    await setPin(deps.storage, principal.account, kind, { profile_username: principal.profile.username, [input]: form[input] });
    ctx.status = 303;
    ctx.redirect('/connect?done=pinned');
  });

  async function renderCalendar(ctx: Context, principal: ConnectPrincipal, notice?: Notice): Promise<void> {
    const page = pageContext(ctx, principal);
    const tzParam = single(ctx.query.tz);
    // The zone asked for, else the profile's posting-queue zone, else UTC.
    const timezone = tzParam && isTimeZoneName(tzParam) ? tzParam
      : (await deps.storage.queues.getSettings(principal.account.id, principal.profile.username))?.timezone ?? 'UTC';
    const view: CalendarView = single(ctx.query.view) === 'month' ? 'month' : 'week';
    const today = todayIn(deps.clock.now(), timezone);
    const anchor = parseIsoDay(single(ctx.query.date)) ?? today;
    const { week_start_day: weekStart } = await getPreferences(deps, principal.account);
    const grid = calendarGrid(view, anchor, weekStart, timezone);
    const posts = await calendarPosts(deps, principal.account, principal.profile.username, { from: grid.from, to: grid.to });
    ctx.type = 'html';
    ctx.body = calendarPage(page, {
      grid, posts, timezone, today: dayNumber(today), readonly: principal.link.settings.readonlyCalendar,
      showAccounts: !principal.link.settings.readonlyCalendar, platformName, anchor: `${anchor.year}-${String(anchor.month).padStart(2, '0')}-${String(anchor.day).padStart(2, '0')}`,
      ...(notice ?? noticeOf(ctx, page.t) ? { notice: (notice ?? noticeOf(ctx, page.t))! } : {}),
    });
  }

  router.get('/connect/calendar', async (ctx) => {
    if (await tokenEntry(ctx, '/connect/calendar')) return;
    const principal = await principalOf(ctx);
    if (!showCalendar(principal)) {
      ctx.status = 303;
      ctx.redirect('/connect');
      return;
    }
    await renderCalendar(ctx, principal);
  });

  const calendarEdit = (action: 'move' | 'cancel') => async (ctx: Context) => {
    const { principal, form } = await formPost(ctx, { edit: true });
    if (!showCalendar(principal)) throw new HeraldError('forbidden', 'The calendar is not enabled for this link.');
    const jobId = (form.job_id ?? '').slice(0, 200);
    const timezone = form.timezone && isTimeZoneName(form.timezone) ? form.timezone : 'UTC';
    try {
      if (action === 'move') await moveProfilePost(deps, principal.account, principal.profile.username, jobId, { scheduledDate: form.scheduled_date ?? '', timezone });
      else await cancelProfilePost(deps, principal.account, principal.profile.username, jobId);
    } catch (err) {
      if (!(err instanceof HeraldError)) throw err;
      ctx.status = err.kind === 'invalid_input' ? 400 : err.kind === 'conflict' ? 409 : err.kind === 'not_found' ? 404 : 403;
      await renderCalendar(ctx, principal, { kind: 'bad', text: pageContext(ctx, principal).t('error.generic', { message: err.message }) });
      return;
    }
    ctx.status = 303;
    const day = action === 'move' ? parseIsoDay((form.scheduled_date ?? '').slice(0, 10)) : undefined;
    const view = form.view === 'month' ? 'month' : 'week';
    ctx.redirect(`/connect/calendar?done=${action === 'move' ? 'moved' : 'cancelled'}&view=${view}&tz=${encodeURIComponent(timezone)}${day ? `&date=${(form.scheduled_date ?? '').slice(0, 10)}` : ''}`);
  };
  router.post('/connect/calendar/move', calendarEdit('move'));
  router.post('/connect/calendar/cancel', calendarEdit('cancel'));

  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** Keys the page can show (the catalogue); exported for the docs check. */
export { isLabelKey };
