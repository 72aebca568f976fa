import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { apiClient, eventually } from '../support/stack';
import { useHerald } from '../support/e2e';

jest.setTimeout(300_000);

/** Where the test leaves its screenshots (look at them when changing the page). */
const SHOTS = process.env.HERALD_SCREENSHOT_DIR ?? '/tmp/herald-shots';
const CHROMIUM = process.env.HERALD_CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Bound for every wait on the page: a loaded machine is slow, never wrong. */
const WAIT_MS = 60_000;

/**
 * The hosted connect page and calendar in a real browser (Debian's chromium driven by
 * playwright-core) against the real daemons (API, web) and the sandbox simulators: connect TikTok
 * through the simulator's consent page and Telegram by its credentials form, disconnect, the
 * single-use and expired links, German with a ui_labels override, a `<script>` label kept inert,
 * the calendar moving a scheduled post, and the read-only calendar.
 */
/**
 * Waits for the page a form submission leads to: until then the previous page (and its notice)
 * is still on screen, so reading the notice at once races the navigation.
 */
async function noticeSays(page: Page, text: string): Promise<void> {
  await page.locator('[data-notice=ok]', { hasText: text }).waitFor({ timeout: 60_000 });
  await expect(page.locator('[data-notice=ok]').textContent()).resolves.toBe(text);
}

describe('connect page in a browser', () => {
  let browser: Browser;
  const PROFILE = 'sam';

  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  };
  const link = async (body: Record<string, unknown>, client = api): Promise<string> => {
    const res = await client.post('/api/herald/users/generate-jwt', { username: PROFILE, ...body });
    if (res.status !== 200) throw new Error(`generate-jwt: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.access_url as string;
  };
  const newPage = async (opts: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ locale: 'en-US', ...opts });
    context.setDefaultTimeout(WAIT_MS);
    return { context, page: await context.newPage() };
  };

  const herald = useHerald({
    sandbox: true, web: true, env: { HERALD_AUTH_CACHE_MS: '0' },
    account: { email: `browser-${Date.now()}@e2e.test`, plan: 'business' }, profiles: [PROFILE],
  });
  const { stack, sandbox, api } = herald;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('connects TikTok through the consent page and Telegram by its form, shows both with handles, disconnects one; the link works once', async () => {
    const url = await link({
      platforms: ['tiktok', 'telegram'], redirect_url: 'https://app.example.test/done', redirect_button_text: 'Back to the app',
      connect_title: 'Connect your accounts to Acme', logo_image: 'https://cdn.example.test/logo.png',
    });
    const { context, page } = await newPage();
    const opened = await page.goto(url);
    expect(opened?.status()).toBe(200);
    // The token left the address bar: the session cookie carries on.
    expect(new URL(page.url()).pathname).toBe('/connect');
    expect(new URL(page.url()).search).toBe('');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'herald_connect')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await expect(page.locator('[data-title]').textContent()).resolves.toBe('Connect your accounts to Acme');
    await expect(page.locator('[data-platform]').evaluateAll((els) => els.map((e) => e.getAttribute('data-platform')))).resolves.toEqual(['tiktok', 'telegram']);
    await expect(page.locator('[data-platform=tiktok]').getAttribute('data-state')).resolves.toBe('not_connected');
    await expect(page.locator('[data-redirect]').getAttribute('href')).resolves.toBe('https://app.example.test/done');
    await shot(page, '01-connect-page');

    // TikTok: the simulator's consent page, Authorize, back to the page with the outcome.
    await page.locator('[data-connect=tiktok]').click();
    await page.waitForURL((u) => !u.toString().startsWith(stack.webUrl));
    await expect(page.locator('h1').textContent()).resolves.toMatch(/wants to access your TikTok account/);
    await shot(page, '02-tiktok-consent');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL((u) => u.toString().startsWith(`${stack.webUrl}/connect`));
    await noticeSays(page, 'TikTok is connected.');
    const tiktok = page.locator('[data-platform=tiktok]');
    await expect(tiktok.getAttribute('data-state')).resolves.toBe('connected');
    await expect(tiktok.locator('[data-handle]').textContent()).resolves.toBe(`@${sandbox.accounts.tiktok.username}`);

    // Telegram: the credentials form, checked with the (simulated) network before it is stored.
    const telegram = page.locator('[data-platform=telegram]');
    await telegram.getByLabel('Bot token').fill('123:wrong');
    await telegram.getByLabel('Chat id').fill(sandbox.env.SANDBOX_TELEGRAM_CHAT_ID!);
    await telegram.getByRole('button', { name: 'Connect Telegram' }).click();
    await expect(page.locator('[data-platform=telegram] [data-refusal]').textContent()).resolves.toMatch(/Telegram did not accept these credentials/);
    await shot(page, '03-telegram-refused');
    await page.locator('[data-platform=telegram]').getByLabel('Bot token').fill(sandbox.env.SANDBOX_TELEGRAM_BOT_TOKEN!);
    await page.locator('[data-platform=telegram]').getByLabel('Chat id').fill(sandbox.env.SANDBOX_TELEGRAM_CHAT_ID!);
    await page.locator('[data-platform=telegram]').getByRole('button', { name: 'Connect Telegram' }).click();
    await noticeSays(page, 'Telegram is connected.');
    await expect(page.locator('[data-platform=telegram]').getAttribute('data-state')).resolves.toBe('connected');
    await expect(page.locator('[data-platform=telegram] [data-handle]').textContent()).resolves.toMatch(/^@\S+/);
    await expect(page.locator('[data-platform=tiktok] [data-handle]').textContent()).resolves.toBe(`@${sandbox.accounts.tiktok.username}`);
    await shot(page, '04-both-connected');
    const profile = (await api.get(`/api/herald/users/${PROFILE}`)).body.profile;
    expect(Object.keys(profile.social_accounts).sort()).toEqual(['telegram', 'tiktok']);

    // Disconnect Telegram, by keyboard.
    await page.locator('[data-disconnect=telegram]').focus();
    await page.keyboard.press('Enter');
    await noticeSays(page, 'Telegram is disconnected.');
    await expect(page.locator('[data-platform=telegram]').getAttribute('data-state')).resolves.toBe('not_connected');
    await expect(page.locator('[data-platform=tiktok]').getAttribute('data-state')).resolves.toBe('connected');
    await shot(page, '05-telegram-disconnected');
    expect(Object.keys((await api.get(`/api/herald/users/${PROFILE}`)).body.profile.social_accounts)).toEqual(['tiktok']);

    // The same link from another browser: refused.
    const other = await newPage();
    const again = await other.page.goto(url);
    expect(again?.status()).toBe(410);
    await expect(other.page.locator('h1').textContent()).resolves.toBe('This link was already used');
    await expect(other.page.locator('[data-platform]').count()).resolves.toBe(0);
    await shot(other.page, '06-link-used');
    // Without the session, no form of the page works either.
    const forged = await other.page.request.post(`${stack.webUrl}/connect/disconnect/tiktok`, { form: { _csrf: 'x' }, maxRedirects: 0 });
    expect(forged.status()).toBe(401);
    // With the session but without the form's CSRF token: refused.
    const noCsrf = await page.request.post(`${stack.webUrl}/connect/disconnect/tiktok`, { form: { _csrf: 'forged' }, maxRedirects: 0 });
    expect(noCsrf.status()).toBe(403);
    await other.context.close();
    await context.close();
  });

  it('after a Facebook or LinkedIn connection, the page pin is a radio list from the page lookup, with the text field when the lookup fails', async () => {
    const url = await link({ platforms: ['facebook', 'linkedin'] });
    const { context, page } = await newPage();
    await page.goto(url);
    for (const [platform, button] of [['facebook', 'Continue'], ['linkedin', 'Allow']] as const) {
      await page.locator(`[data-connect=${platform}]`).click();
      await page.waitForURL((u) => !u.toString().startsWith(stack.webUrl));
      await page.getByRole('button', { name: button }).click();
      await page.waitForURL((u) => u.toString().startsWith(`${stack.webUrl}/connect`));
      await page.locator(`[data-platform=${platform}][data-state=connected]`).waitFor();
    }
    const fb = sandbox.accounts.facebook;
    const fbChoices = page.locator('[data-pin=facebook-page] [data-pin-choices] input[type=radio]');
    await expect(fbChoices.evaluateAll((els) => els.map((e) => e.getAttribute('value')))).resolves.toEqual([fb.pageId]);
    await expect(page.locator('[data-pin=facebook-page] [data-pin-choices]').textContent()).resolves.toContain(fb.pageName);
    const li = sandbox.accounts.linkedin;
    const liChoice = page.locator('[data-pin=linkedin-page]').getByLabel(/Herald Sandbox Page/);
    await expect(liChoice.getAttribute('value')).resolves.toBe(li.pageId);
    await shot(page, '20-pin-pickers');
    await liChoice.check();
    await page.locator('[data-pin=linkedin-page]').getByRole('button', { name: 'Save' }).click();
    await noticeSays(page, 'Saved.');
    expect((await api.get(`/api/herald/users/linkedin-page?profile_username=${PROFILE}`)).body).toMatchObject({ page_id: li.pageId });
    await expect(page.locator('[data-pin=linkedin-page]').getByLabel(/Herald Sandbox Page/).isChecked()).resolves.toBe(true);
    await page.locator('[data-pin=facebook-page]').getByRole('button', { name: 'Save' }).click();
    await noticeSays(page, 'Saved.');
    expect((await api.get(`/api/herald/users/facebook-page?profile_username=${PROFILE}`)).body).toMatchObject({ page_id: fb.pageId });

    // LinkedIn failing: the page still renders, with the text field for the page id.
    sandbox.simulators.linkedin.fail('server_error', 5);
    await page.reload();
    await expect(page.locator('[data-pin=linkedin-page] [data-pin-choices]').count()).resolves.toBe(0);
    await expect(page.locator('#pin-linkedin-page').getAttribute('type')).resolves.toBe('text');
    await expect(page.locator('#pin-linkedin-page').inputValue()).resolves.toBe(li.pageId);
    await shot(page, '21-pin-fallback');
    sandbox.simulators.linkedin.reset();
    await context.close();
  });

  it('on a phone, the OAuth redirect goes through an intermediate page', async () => {
    const url = await link({ platforms: ['youtube'] });
    const { context, page } = await newPage({
      viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    });
    await page.goto(url);
    await shot(page, '07-phone-connect');
    await page.locator('[data-connect=youtube]').click();
    await page.waitForSelector('[data-page=mobile-continue]');
    const next = await page.locator('[data-continue]').getAttribute('href');
    expect(new URL(next!).origin).not.toBe(new URL(stack.webUrl).origin);
    await shot(page, '08-phone-intermediate');
    await context.close();
  });

  it('an expired link is refused (a shortened lifetime)', async () => {
    // A second API daemon on the same database whose links live 2 seconds.
    const shortLived = await herald.startApi({ HERALD_CONNECT_LINK_TTL_MS: '2000', HERALD_WEB_PUBLIC_URL: stack.webUrl });
    const url = await link({}, apiClient(shortLived.apiUrl, herald.key));
    const token = new URL(url).searchParams.get('token')!;
    await eventually(() => fetch(`${stack.apiUrl}/api/herald/users/validate-jwt`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status), (s) => s === 401, WAIT_MS, 500);
    const { context, page } = await newPage();
    const res = await page.goto(url);
    expect(res?.status()).toBe(410);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link has expired');
    await shot(page, '09-link-expired');
    await context.close();
  });

  it('language=de with a ui_labels override; a <script> label, title and unknown keys rendered inert', async () => {
    const url = await link({
      language: 'de', platforms: ['tiktok', 'telegram'],
      connect_title: '<img src=x onerror="window.__pwned=1">Titel',
      ui_labels: {
        'nav.calendar': 'Mein Beitragsplan',
        'connect.description': '<script>window.__pwned = 1</script>Beschreibung',
        'not.a.known.key': 'NEVER-SHOWN',
      },
    });
    const { context, page } = await newPage({ locale: 'fr-FR' });
    await page.goto(url);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await expect(page.locator('nav.tabs a').nth(1).textContent()).resolves.toBe('Mein Beitragsplan');
    await expect(page.locator('[data-platform=telegram] [data-badge]').textContent()).resolves.toBe('Nicht verbunden');
    await expect(page.locator('[data-platform=tiktok] [data-badge]').textContent()).resolves.toBe('Verbunden');
    await expect(page.locator('[data-description]').textContent()).resolves.toBe('<script>window.__pwned = 1</script>Beschreibung');
    await expect(page.locator('[data-title]').textContent()).resolves.toBe('<img src=x onerror="window.__pwned=1">Titel');
    await expect(page.locator('script').count()).resolves.toBe(0);
    await expect(page.locator('img[src=x]').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
    expect(await page.content()).not.toContain('NEVER-SHOWN');
    await shot(page, '10-german-labels');
    await context.close();
  });

  it('the calendar shows a scheduled post by week and month and moves it; readonly_calendar shows no edit controls', async () => {
    expect((await api.post('/api/herald/users/preferences', { week_start_day: 'sunday' })).status).toBe(200);
    const webhook = sandbox.env.SANDBOX_DISCORD_WEBHOOK_URL!;
    expect((await api.post('/api/herald/users/discord/credentials', { profile_username: PROFILE, webhook_url: webhook })).status).toBe(200);
    const when = new Date(Date.now() + 3 * 86_400_000);
    when.setUTCHours(10, 0, 0, 0);
    const posted = await api.post('/api/upload_text', { user: PROFILE, 'platform[]': ['discord'], title: 'Launch <day> post', scheduled_date: when.toISOString().slice(0, 19), timezone: 'UTC' });
    expect(posted.status).toBe(202);
    const jobId = posted.body.job_id as string;
    const day = when.toISOString().slice(0, 10);

    const url = await link({ platforms: ['discord'] });
    const { context, page } = await newPage();
    await page.goto(url.replace('/connect?', '/connect/calendar?'));
    expect(new URL(page.url()).pathname).toBe('/connect/calendar');
    await page.goto(`${stack.webUrl}/connect/calendar?view=week&date=${day}&tz=UTC`);
    await expect(page.locator('[data-page=calendar]').getAttribute('data-week-start')).resolves.toBe('sunday');
    const post = page.locator(`[data-post="${jobId}"]`);
    await expect(post.locator('[data-post-title]').textContent()).resolves.toBe('Launch <day> post');
    await expect(post.getAttribute('data-status')).resolves.toBe('scheduled');
    await expect(post.locator('[data-target=discord]').getAttribute('data-target-status')).resolves.toBe('waiting');
    await expect(page.locator(`td[data-day="${day}"] [data-post="${jobId}"]`).count()).resolves.toBe(1);
    await shot(page, '11-calendar-week');
    await page.goto(`${stack.webUrl}/connect/calendar?view=month&date=${day}&tz=UTC`);
    await expect(page.locator(`td[data-day="${day}"] [data-post="${jobId}"]`).count()).resolves.toBe(1);
    await shot(page, '12-calendar-month');

    // Move it one day later at 15:30, with the keyboard-usable form.
    const target = new Date(when.getTime() + 86_400_000);
    const targetDay = target.toISOString().slice(0, 10);
    await page.locator(`[data-post="${jobId}"] summary`).click();
    await page.locator(`[data-move="${jobId}"] input[type=datetime-local]`).fill(`${targetDay}T15:30`);
    await shot(page, '13-calendar-move-form');
    await page.locator(`[data-move="${jobId}"] button`).click();
    await noticeSays(page, 'The post was moved.');
    await expect(page.locator(`td[data-day="${targetDay}"] [data-post="${jobId}"] time`).textContent()).resolves.toBe('15:30');
    await shot(page, '14-calendar-moved');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, '14b-calendar-phone');
    const status = await api.get(`/api/herald/status?job_id=${encodeURIComponent(jobId)}`);
    expect(status.body.scheduled_date).toBe(`${targetDay}T15:30:00.000Z`);
    await context.close();

    // Read-only: the calendar only, no edit controls, /connect sends there, and edits are refused.
    const readonly = await newPage();
    await readonly.page.goto(await link({ readonly_calendar: true }));
    expect(new URL(readonly.page.url()).pathname).toBe('/connect/calendar');
    await readonly.page.goto(`${stack.webUrl}/connect/calendar?view=week&date=${targetDay}&tz=UTC`);
    await expect(readonly.page.locator('[data-page=calendar]').getAttribute('data-readonly')).resolves.toBe('true');
    await expect(readonly.page.locator(`[data-post="${jobId}"]`).count()).resolves.toBe(1);
    await expect(readonly.page.locator('form').count()).resolves.toBe(0);
    await expect(readonly.page.locator('[data-platform]').count()).resolves.toBe(0);
    await shot(readonly.page, '15-calendar-readonly');
    await readonly.page.goto(`${stack.webUrl}/connect`);
    expect(new URL(readonly.page.url()).pathname).toBe('/connect/calendar');
    await readonly.context.close();

    // show_calendar=false: /connect/calendar falls back to /connect.
    const noCalendar = await newPage();
    await noCalendar.page.goto((await link({ show_calendar: false })).replace('/connect?', '/connect/calendar?'));
    expect(new URL(noCalendar.page.url()).pathname).toBe('/connect');
    await expect(noCalendar.page.locator('nav.tabs').count()).resolves.toBe(0);
    await noCalendar.context.close();
  });
});
