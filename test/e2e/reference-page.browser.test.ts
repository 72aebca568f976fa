import { chromium, type Browser } from 'playwright-core';
import { anApiServer } from '../support/api-app';

const CHROMIUM = process.env.HERALD_CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The API reference page in a real browser: Swagger UI from the bundled copy renders every
 * operation of the generated document under the page's Content-Security-Policy, and the page asks
 * nothing of any other host.
 */
describe('API reference page in Chromium', () => {
  let api: Awaited<ReturnType<typeof anApiServer>>;
  let browser: Browser;
  beforeAll(async () => {
    api = await anApiServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('renders the operations of /api/openapi.json, offline', async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const failed: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.protocol !== 'data:' && url.host !== `127.0.0.1:${api.port}`) elsewhere.push(req.url());
    });
    page.on('requestfailed', (req) => failed.push(req.url()));
    page.on('response', (res) => { if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`); });
    // The page runs under its Content-Security-Policy: anything it refuses is reported here.
    const refused: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => { refused.push(text); });
    await page.addInitScript({ content: "document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(e.violatedDirective + ' ' + e.blockedURI));" });
    const answer = await page.goto(`http://127.0.0.1:${api.port}/api/docs`);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self' 'sha256-");
    // Swagger UI renders one block per operation once the document is loaded and parsed.
    await page.waitForSelector('.opblock', { timeout: 60_000 });
    const spec = (await api.send({ method: 'GET', path: '/api/openapi.json', auth: false })).json;
    const operations = Object.values(spec.paths as Record<string, object>).reduce((n, methods) => n + Object.keys(methods).length, 0);
    // Tags render one after the other: wait on the count, with a generous bound.
    const until = Date.now() + 30_000;
    while ((await page.locator('.opblock').count()) !== operations && Date.now() < until) await page.waitForTimeout(250);
    expect(await page.locator('.opblock').count()).toBe(operations);
    expect(await page.locator('.info .title').innerText()).toContain('Herald API');
    expect(await page.locator('[data-path="/api/herald/users/{username}"]').count()).toBeGreaterThan(0);
    expect({ elsewhere, failed, refused }).toEqual({ elsewhere: [], failed: [], refused: [] });
    await page.close();
  }, 120_000);
});
