import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNotificationSenders } from '../../adapters/notifications/senders';
import { createWebhookUrlGuard } from '../../adapters/notifications/url-guard';
import { AllowList } from '../../adapters/net/destination';
import { postOnce } from '../../adapters/notifications/http-post';
import { verifyWebhook } from '../../adapters/notifications/signature';
import { startSlackWebhookSimulator, type SlackWebhookSimulator } from '../../ops/simulators/slack-webhook';
import { startTelegramSimulator, type TelegramSimulator } from '../../ops/simulators/telegram';

/** A loopback receiver: each request's raw body and headers, answered by `respond`. */
async function receiver(respond: (req: IncomingMessage, res: ServerResponse, raw: Buffer) => void) {
  const seen: { headers: IncomingMessage['headers']; raw: Buffer }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      seen.push({ headers: req.headers, raw });
      respond(req, res, raw);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { seen, port, url: `http://127.0.0.1:${port}/hook`, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

const payload = { event: 'upload_completed', platform: 'x', title: 'Ünïcode ✓' };

describe('webhook sender (loopback receiver)', () => {
  it('POSTs the exact JSON with the configured headers and a signature verifiable from the raw body', async () => {
    const r = await receiver((_req, res) => { res.writeHead(204); res.end(); });
    try {
      const senders = createNotificationSenders({ headerPrefix: 'X-Svc-', userAgent: 'Svc-Webhooks/1.0', timeoutMs: 5000, allow: [`127.0.0.1:${r.port}`], telegram: { botToken: null, apiBase: '' } });
      const out = await senders.webhook({ url: r.url, secret: 'whsec_abc', event: 'upload_completed', deliveryId: 'dlv_1', payload });
      expect(out).toMatchObject({ ok: true, statusCode: 204, error: null, target: r.url });
      const [got] = r.seen;
      expect(got!.raw.toString('utf8')).toBe(JSON.stringify(payload));
      expect(got!.headers).toMatchObject({ 'user-agent': 'Svc-Webhooks/1.0', 'x-svc-event': 'upload_completed', 'x-svc-delivery': 'dlv_1', 'content-type': 'application/json' });
      expect(verifyWebhook('whsec_abc', String(got!.headers['x-svc-timestamp']), got!.raw, String(got!.headers['x-svc-signature']))).toBe(true);
    } finally {
      await r.close();
    }
  });

  it('sends no signature without a secret; counts non-2xx, redirects (not followed) and timeouts as failures; keeps no answer of an allow-listed private receiver', async () => {
    let mode = 'plain';
    const r = await receiver((_req, res) => {
      if (mode === 'plain') { res.writeHead(200); res.end('x'.repeat(5000)); }
      if (mode === '500') { res.writeHead(500); res.end('boom'); }
      if (mode === 'redirect') { res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data' }); res.end(); }
      // 'sleep': never answers.
    });
    try {
      const senders = createNotificationSenders({ headerPrefix: 'X-Herald-', userAgent: 'Herald-Webhooks/1.0', timeoutMs: 1500, allow: [`127.0.0.1:${r.port}`], telegram: { botToken: null, apiBase: '' } });
      const send = () => senders.webhook({ url: r.url, secret: null, event: 'test', deliveryId: 'dlv_2', payload });
      const plain = await send();
      // The receiver is an internal address let through by the allow list: its answer is not shown to the tenant.
      expect(plain).toMatchObject({ ok: true, statusCode: 200, response: null });
      expect(r.seen[0]!.headers).not.toHaveProperty('x-herald-signature');
      mode = '500';
      expect(await send()).toMatchObject({ ok: false, statusCode: 500, error: 'HTTP 500', response: null });
      mode = 'redirect';
      expect(await send()).toMatchObject({ ok: false, statusCode: 302, error: expect.stringContaining('redirects are not followed') });
      expect(r.seen).toHaveLength(3);
      mode = 'sleep';
      const slow = await send();
      expect(slow).toMatchObject({ ok: false, statusCode: null, error: expect.stringContaining('timeout') });
      expect(slow.latencyMs).toBeGreaterThanOrEqual(1400);
    } finally {
      await r.close();
    }
  });

  it('keeps the first 1 KB of the answer of a receiver that is not an allow-listed private one', async () => {
    const r = await receiver((_req, res) => { res.writeHead(200); res.end('x'.repeat(5000)); });
    try {
      const out = await postOnce(r.url, '{}', {}, { rules: { anyAddress: true }, timeoutMs: 2000 });
      expect(out.response).toHaveLength(1024);
    } finally {
      await r.close();
    }
  });

  it('a host-only allow-list entry opens the default port of the scheme, not every port of the host', async () => {
    const r = await receiver((_req, res) => { res.writeHead(200); res.end('internal'); });
    try {
      const hostOnly = createNotificationSenders({ headerPrefix: 'X-Herald-', userAgent: 'Herald-Webhooks/1.0', timeoutMs: 2000, allow: ['127.0.0.1'], telegram: { botToken: null, apiBase: '' } });
      const out = await hostOnly.webhook({ url: r.url, secret: null, event: 'test', deliveryId: 'dlv_4', payload });
      expect(out).toMatchObject({ ok: false, statusCode: null, response: null, error: expect.stringContaining('private or reserved') });
      expect(r.seen).toHaveLength(0);
      expect(new AllowList(['127.0.0.1']).allows(new URL('http://127.0.0.1/hook'))).toBe(true);
      expect(new AllowList(['127.0.0.1']).allows(new URL('https://127.0.0.1/hook'))).toBe(true);
      expect(new AllowList(['127.0.0.1']).allows(new URL('http://127.0.0.1:443/hook'))).toBe(false);
      expect(new AllowList(['[::1]:8080', 'sim.test:80']).allows(new URL('http://[::1]:8080/'))).toBe(true);
      expect(new AllowList(['sim.test:80']).allows(new URL('http://sim.test/'))).toBe(true);
      await expect(createWebhookUrlGuard({ allow: new AllowList(['127.0.0.1']) }).vet(r.url, 'webhook_url')).rejects.toMatchObject({ errorCode: 'webhook_url_forbidden' });
    } finally {
      await r.close();
    }
  });

  it('checks the address again at delivery: a name resolving to loopback is refused unless allow-listed', async () => {
    const r = await receiver((_req, res) => { res.writeHead(200); res.end('ok'); });
    try {
      const strict = createNotificationSenders({ headerPrefix: 'X-Herald-', userAgent: 'Herald-Webhooks/1.0', timeoutMs: 2000, allow: [], telegram: { botToken: null, apiBase: '' } });
      const byName = await strict.webhook({ url: `http://localhost:${r.port}/hook`, secret: null, event: 'test', deliveryId: 'dlv_3', payload });
      expect(byName).toMatchObject({ ok: false, error: expect.stringContaining('private or reserved') });
      const byIp = await strict.webhook({ url: r.url, secret: null, event: 'test', deliveryId: 'dlv_3', payload });
      expect(byIp).toMatchObject({ ok: false, error: expect.stringContaining('private or reserved') });
      expect(r.seen).toHaveLength(0);
    } finally {
      await r.close();
    }
  });

  it('with loopback allowed (the sandbox), reaches a loopback receiver on any port, and still no private address', async () => {
    const r = await receiver((_req, res) => { res.writeHead(200); res.end('ok'); });
    try {
      const sandbox = createNotificationSenders({ headerPrefix: 'X-Herald-', userAgent: 'Herald-Webhooks/1.0', timeoutMs: 2000, allow: [], loopback: true, telegram: { botToken: null, apiBase: '' } });
      expect(await sandbox.webhook({ url: r.url, secret: null, event: 'test', deliveryId: 'dlv_4', payload })).toMatchObject({ ok: true, statusCode: 200 });
      expect(await sandbox.webhook({ url: `http://localhost:${r.port}/hook`, secret: null, event: 'test', deliveryId: 'dlv_5', payload }))
        .toMatchObject({ ok: true, statusCode: 200 });
      expect(r.seen).toHaveLength(2);
      const guard = createWebhookUrlGuard({ loopback: true });
      await expect(guard.vet(r.url, 'webhook_url')).resolves.toBeUndefined();
      await expect(guard.vet(`http://[::1]:${r.port}/hook`, 'webhook_url')).resolves.toBeUndefined();
      for (const url of ['http://10.0.0.7/hook', 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:192.168.0.1]/hook']) {
        await expect(guard.vet(url, 'webhook_url')).rejects.toMatchObject({ errorCode: 'webhook_url_forbidden' });
      }
      // Off by default: the same guard without the flag refuses loopback.
      await expect(createWebhookUrlGuard({}).vet(r.url, 'webhook_url')).rejects.toMatchObject({ errorCode: 'webhook_url_forbidden' });
    } finally {
      await r.close();
    }
  });
});

describe('webhook URL guard (SSRF rules when saved)', () => {
  const guard = createWebhookUrlGuard({ allow: new AllowList(['127.0.0.1:9999']) });
  it.each([
    ['ftp://example.com/x', 'webhook_url_invalid'],
    ['not a url', 'webhook_url_invalid'],
    ['http://user:pw@example.com/', 'webhook_url_invalid'],
    ['http://127.0.0.1:8080/', 'webhook_url_forbidden'],
    ['http://localhost/', 'webhook_url_forbidden'],
    ['http://10.1.2.3/', 'webhook_url_forbidden'],
    ['http://192.168.1.1/', 'webhook_url_forbidden'],
    ['http://172.16.0.1/', 'webhook_url_forbidden'],
    ['http://169.254.169.254/latest/meta-data', 'webhook_url_forbidden'],
    ['http://[::1]/', 'webhook_url_forbidden'],
    ['http://[fe80::1]/', 'webhook_url_forbidden'],
    ['http://[::ffff:127.0.0.1]/', 'webhook_url_forbidden'],
    ['http://0.0.0.0/', 'webhook_url_forbidden'],
  ])('refuses %s with 400 %s', async (url, code) => {
    await expect(guard.vet(url, 'webhook_url')).rejects.toMatchObject({ kind: 'invalid_input', errorCode: code });
  });

  it('accepts a public address and an allow-listed private one', async () => {
    await expect(guard.vet('https://93.184.215.14/hook', 'webhook_url')).resolves.toBeUndefined();
    await expect(guard.vet('http://127.0.0.1:9999/hook', 'webhook_url')).resolves.toBeUndefined();
  });
});

describe('chat senders against their simulators', () => {
  let telegram: TelegramSimulator;
  let slack: SlackWebhookSimulator;
  beforeAll(async () => {
    telegram = await startTelegramSimulator();
    slack = await startSlackWebhookSimulator();
  });
  afterAll(async () => {
    await telegram.close();
    await slack.close();
  });

  it('Telegram: sendMessage to the chat with the configured bot; the token never shows in the outcome', async () => {
    const bot = telegram.createBot({ username: 'herald_notify_bot' });
    const chat = telegram.createChat({ type: 'supergroup', title: 'Ops' });
    telegram.setMember(chat.id, bot.id, 'member');
    const senders = createNotificationSenders({ headerPrefix: 'X-Herald-', userAgent: 'Herald-Webhooks/1.0', timeoutMs: 5000, allow: [], telegram: { botToken: bot.token, apiBase: telegram.baseUrl } });
    const out = await senders.telegram(String(chat.id), '✅ Published to x');
    expect(out).toMatchObject({ ok: true, statusCode: 200, target: `telegram:${chat.id}` });
    expect(telegram.messages(chat.id).map((m) => m.text)).toEqual(['✅ Published to x']);
    const notMember = telegram.createChat({ type: 'supergroup', title: 'Elsewhere' });
    const refused = await senders.telegram(String(notMember.id), 'hi');
    expect(refused).toMatchObject({ ok: false, statusCode: 400, error: expect.stringContaining('chat not found') });
    telegram.fail('server_error');
    expect(await senders.telegram(String(chat.id), 'hi')).toMatchObject({ ok: false, statusCode: 500 });
    expect(JSON.stringify([out, refused])).not.toContain(bot.token);
  });

  it('Slack: an incoming-webhook message; refusals are failed deliveries; the URL secret is masked', async () => {
    const hook = slack.createWebhook({ channel: '#alerts' });
    const senders = createNotificationSenders({ headerPrefix: 'X-Herald-', userAgent: 'Herald-Webhooks/1.0', timeoutMs: 5000, allow: [`127.0.0.1:${slack.port}`], telegram: { botToken: null, apiBase: '' } });
    const out = await senders.slack(hook.url, '✅ Published to x');
    // The simulator is on loopback (allow-listed): its answers are not kept; Slack's own (public) answers are.
    expect(out).toMatchObject({ ok: true, statusCode: 200, response: null });
    expect(out.target).not.toBe(hook.url);
    // The delivery log shows the URL as the settings read does (maskedSlackUrl): no workspace, channel or secret part.
    expect(out.target).toBe(`${new URL(hook.url).origin}/services/T…/…/****`);
    expect(slack.messages('#alerts').map((m) => m.text)).toEqual(['✅ Published to x']);
    slack.fail('rate_limited');
    expect(await senders.slack(hook.url, 'x')).toMatchObject({ ok: false, statusCode: 429, response: null });
    slack.archiveChannel('#alerts');
    expect(await senders.slack(hook.url, 'x')).toMatchObject({ ok: false, statusCode: 410, response: null });
    slack.revoke(hook.url);
    expect(await senders.slack(hook.url, 'x')).toMatchObject({ ok: false, statusCode: 404, response: null });
  });
});
