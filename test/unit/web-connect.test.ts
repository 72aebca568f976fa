import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { s256Pkce } from '../../adapters/crypto/node-crypto';
import { createMemoryConnectStorage } from '../../adapters/memory/connect-storage';
import { createHttpServer } from '../../apps/api/http-server';
import { calendarGrid, parseIsoDay } from '../../apps/web/calendar';
import { LABEL_KEYS } from '../../apps/web/i18n';
import { createWeb } from '../../apps/web/server';
import { generateConnectLink } from '../../core/usecases/connect-links';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { createProfile } from '../../core/usecases/profiles';
import { fakeTextPlatform } from '../support/fake-platform';
import { aWorld } from '../support/world';

/**
 * The web daemon's Koa app in-process over the in-memory world: the token exchange and its
 * cookie, single use, CSRF on every form, read-only links, escaping, languages. The browser test
 * (test/e2e/connect-page.browser.test.ts) drives the real daemons.
 */
describe('connect page (in-process)', () => {
  let server: Server;
  let base: string;
  let world: ReturnType<typeof aWorld>;
  let generate: (input: Record<string, unknown>) => Promise<string>;
  let accountId: string;

  beforeAll(async () => {
    const discord = fakeTextPlatform('discord');
    const telegram = fakeTextPlatform('telegram');
    const withForm = { ...telegram.adapter, descriptor: { ...telegram.adapter.descriptor, credentialFields: { fields: [{ name: 'secret', type: 'string' as const, required: true, endpoints: ['text' as const], description: 'The <secret> hint' }] } } };
    world = aWorld({ platforms: [discord.adapter, withForm] });
    const connect = createMemoryConnectStorage();
    const deps = { ...world.deps, connect, pkce: s256Pkce, log: () => undefined };
    const { account } = await world.operator('business');
    accountId = account.id;
    await createProfile(deps, account, { username: 'alice' });
    await connectWithCredentials(deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    const app = createWeb(deps, { publicBaseUrl: 'http://web.test', apiPublicBaseUrl: 'http://api.test', namespace: 'herald', csrfKey: 'k', trustProxy: 0 });
    server = createHttpServer(app, { requestTimeoutMs: 10_000 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    generate = async (input) => {
      const { access_url } = await generateConnectLink(deps, { ttlMs: 3600_000, webBaseUrl: base }, account, { username: 'alice', ...input });
      return access_url;
    };
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const open = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { redirect: 'manual', headers });
    const cookie = res.headers.get('set-cookie') ?? '';
    return { res, cookie, session: /herald_connect=([^;]+)/.exec(cookie)?.[1] };
  };
  const page = async (path: string, session: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { redirect: 'manual', headers: { Cookie: `herald_connect=${session}`, ...headers } });
    return { res, html: await res.text() };
  };
  const post = (path: string, session: string | undefined, form: Record<string, string>) => fetch(`${base}${path}`, {
    method: 'POST', redirect: 'manual', body: new URLSearchParams(form).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(session ? { Cookie: `herald_connect=${session}` } : {}) },
  });
  const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;

  it('exchanges the token once for an HttpOnly session cookie and takes the token out of the address', async () => {
    const url = await generate({});
    const first = await open(url);
    expect(first.res.status).toBe(303);
    expect(first.res.headers.get('location')).toBe('/connect');
    expect(first.cookie).toMatch(/httponly/i);
    expect(first.cookie).toMatch(/samesite=lax/i);
    expect(first.cookie).toMatch(/path=\/connect/i);
    const again = await open(url);
    expect(again.res.status).toBe(410);
    expect(await again.res.text()).toContain('This link was already used');
    // The browser holding the session may come back through the link (e.g. its calendar variant).
    const back = await open(url.replace('/connect?', '/connect/calendar?'), { Cookie: `herald_connect=${first.session}` });
    expect(back.res.status).toBe(303);
    expect(back.res.headers.get('location')).toBe('/connect/calendar');
    const { res, html } = await page('/connect', first.session!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(html).toContain('data-platform="discord" data-state="connected"');
    expect(html).toContain('@discorduser');
  });

  it('without a session the page and its forms answer 401; an unknown token 404', async () => {
    expect((await fetch(`${base}/connect`)).status).toBe(401);
    expect((await post('/connect/disconnect/discord', undefined, { _csrf: 'x' })).status).toBe(401);
    expect((await fetch(`${base}/connect?token=hct_unknown`)).status).toBe(404);
  });

  it('every form needs its CSRF token', async () => {
    const { session } = await open(await generate({}));
    const { html } = await page('/connect', session!);
    expect((await post('/connect/disconnect/discord', session, {})).status).toBe(403);
    expect((await post('/connect/disconnect/discord', session, { _csrf: 'forged' })).status).toBe(403);
    // Another session's token does not fit this one.
    const other = await open(await generate({}));
    const otherCsrf = csrfOf((await page('/connect', other.session!)).html);
    expect((await post('/connect/disconnect/discord', session, { _csrf: otherCsrf })).status).toBe(403);
    expect(html.match(/<form /g)!.length).toBe(html.match(/name="_csrf"/g)!.length);
  });

  it('a credentials form from the network descriptor; a refusal is shown; success connects', async () => {
    const { session } = await open(await generate({ platforms: ['telegram'] }));
    const { html } = await page('/connect', session!);
    expect(html).toContain('name="secret"');
    expect(html).toContain('The &#60;secret&#62; hint');
    const csrf = csrfOf(html);
    const refused = await post('/connect/credentials/telegram', session, { _csrf: csrf, secret: 'bad' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('data-refusal');
    // A platform the link does not allow is refused.
    expect((await post('/connect/credentials/discord', session, { _csrf: csrf, secret: 'good' })).status).toBe(403);
    const ok = await post('/connect/credentials/telegram', session, { _csrf: csrf, secret: 'good' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/connect?connect_status=success&platform=telegram');
    expect((await page('/connect?connect_status=success&platform=telegram', session!)).html).toContain('data-platform="telegram" data-state="connected"');
  });

  it('readonly_calendar: /connect goes to the calendar and every edit is refused', async () => {
    const { session } = await open(await generate({ readonly_calendar: true }));
    const connectPage = await page('/connect', session!);
    expect(connectPage.res.status).toBe(303);
    expect(connectPage.res.headers.get('location')).toBe('/connect/calendar');
    const calendar = await page('/connect/calendar', session!);
    expect(calendar.res.status).toBe(200);
    expect(calendar.html).not.toContain('<form');
    // The CSRF token of a read-only session is not even on the page; a forged post is refused either way.
    expect((await post('/connect/disconnect/discord', session, { _csrf: 'x' })).status).toBe(403);
  });

  it('escapes titles and labels; unknown label keys are never rendered; language from Accept-Language', async () => {
    const { session } = await open(await generate({
      connect_title: '"><script>alert(1)</script>', ui_labels: { 'action.disconnect': '<b>Bye</b>', 'made.up': 'SECRET-UNKNOWN' },
    }));
    const { html } = await page('/connect', session!, { 'Accept-Language': 'es-ES,es;q=0.9' });
    expect(html).toContain('&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;b&#62;Bye&#60;/b&#62;');
    expect(html).not.toContain('SECRET-UNKNOWN');
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Cuentas');
  });

  it('reauth_required: the account is shown with its reconnect form and can still be disconnected', async () => {
    const { session } = await open(await generate({ platforms: ['discord'] }));
    const connection = (await world.deps.storage.connectedAccounts.listByProfile(accountId, 'alice')).find((c) => c.platform === 'discord')!;
    await world.deps.storage.connectedAccounts.setStatus(connection.id, 'reauth_required', world.deps.clock.now());
    const { html } = await page('/connect', session!);
    expect(html).toContain('data-platform="discord" data-state="reauth_required"');
    expect(html).toContain('Reconnect needed');
    expect(html).toContain('data-credentials="discord"');
    expect(html).toContain('data-disconnect="discord"');
    await world.deps.storage.connectedAccounts.setStatus(connection.id, 'connected', world.deps.clock.now());
  });

  it('the calendar is off when show_calendar is false', async () => {
    const { session } = await open(await generate({ show_calendar: false }));
    const calendar = await page('/connect/calendar', session!);
    expect(calendar.res.status).toBe(303);
    expect(calendar.res.headers.get('location')).toBe('/connect');
  });

  it('catalogue keys follow the ui_labels key rule', () => {
    for (const key of LABEL_KEYS) expect(key).toMatch(/^[a-zA-Z0-9_.]+$/);
  });
});

describe('calendar grid', () => {
  it('starts weeks on the week_start_day and covers whole weeks of a month', () => {
    const day = parseIsoDay('2026-11-26')!; // a Thursday
    const sunday = calendarGrid('week', day, 'sunday', 'UTC');
    expect(sunday.columns[0]).toBe('sunday');
    expect(sunday.from.toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(sunday.to.toISOString()).toBe('2026-11-29T00:00:00.000Z');
    const monday = calendarGrid('week', day, 'monday', 'Europe/Paris');
    expect(monday.from.toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(monday.previous).toBe('2026-11-16');
    const month = calendarGrid('month', day, 'monday', 'UTC');
    expect(month.weeks).toHaveLength(6);
    expect(month.from.toISOString()).toBe('2026-10-26T00:00:00.000Z');
    expect(month.to.toISOString()).toBe('2026-12-07T00:00:00.000Z');
    expect(month.previous).toBe('2026-10-31');
    expect(month.next).toBe('2026-12-01');
    expect(parseIsoDay('2026-02-30')).toBeUndefined();
  });
});
