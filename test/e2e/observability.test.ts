import { startDiscordSimulator, type DiscordSimulator } from '../../ops/simulators/discord';
import { startTelegramSimulator, type TelegramSimulator } from '../../ops/simulators/telegram';
import { eventually, freePort } from '../support/stack';
import { useHerald } from '../support/e2e';
import { parsePrometheus, valueOf } from '../support/prometheus-text';
import { createServer, type Server } from 'node:http';

interface ReceivedSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; service: string; attributes: Record<string, unknown> }

/** A minimal OTLP/HTTP JSON receiver: what the daemons export when HERALD_OTLP_TRACES_URL points here. */
async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value?.stringValue;
        for (const ss of rs.scopeSpans ?? []) {
          for (const sp of ss.spans ?? []) {
            spans.push({
              traceId: sp.traceId, spanId: sp.spanId, parentSpanId: sp.parentSpanId || undefined, name: sp.name, service,
              attributes: Object.fromEntries((sp.attributes ?? []).map((a: { key: string; value: Record<string, unknown> }) => [a.key, Object.values(a.value)[0]])),
            });
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/traces`, spans, server };
}

jest.setTimeout(600_000);

/**
 * Operating Herald end to end: metrics after a publish (counters moved, labels right) on the
 * operator ports of the API and the worker, the Temporal SDK's metrics beside them, /healthz and
 * /readyz, one log line per request with its route template, and no secret in any log line.
 */
describe('observability end to end', () => {
  let discord: DiscordSimulator;
  let telegram: TelegramSimulator;
  let webhookUrl: string;
  let botToken: string;
  let apiOps: string;
  let workerOps: string;
  let webOps: string;
  let ports: number[];
  let failedRequestId: string;
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;

  beforeAll(async () => {
    discord = await startDiscordSimulator();
    telegram = await startTelegramSimulator();
    webhookUrl = discord.createWebhook({ name: 'Herald Ops' }).url;
    const bot = telegram.createBot({ username: 'herald_ops_bot' });
    botToken = bot.token;
    const chat = telegram.createChat({ type: 'channel', title: 'Herald Ops', username: 'herald_ops' });
    telegram.setMember(chat.id, bot.id, 'administrator', { can_post_messages: true });
    otlp = await startOtlpReceiver();
    ports = [await freePort(), await freePort(), await freePort()];
    [apiOps, workerOps, webOps] = ports.map((port) => `http://127.0.0.1:${port}`) as [string, string, string];
  });

  const herald = useHerald({
    account: { email: 'ops@herald.dev' },
    profiles: ['alice'],
    env: () => ({
      DISCORD_API_BASE: discord.baseUrl,
      TELEGRAM_API_BASE: telegram.baseUrl,
      HERALD_SYNC_TIMEOUT_MS: '60000',
      HERALD_API_OPS_PORT: String(ports[0]),
      HERALD_WORKER_OPS_PORT: String(ports[1]),
      HERALD_WEB_OPS_PORT: String(ports[2]),
      HERALD_LOG_LEVEL: 'info',
      HERALD_LOG_PRETTY: 'false',
      HERALD_OTLP_TRACES_URL: otlp.url,
    }),
  });
  const { stack, api } = herald;

  beforeAll(async () => {
    expect(await api.post('/api/herald/users/discord/credentials', { profile_username: 'alice', webhook_url: webhookUrl })).toMatchObject({ status: 200 });
    expect(await api.post('/api/herald/users/telegram/credentials', { profile_username: 'alice', bot_token: botToken, chat_id: '@herald_ops' })).toMatchObject({ status: 200 });
  });

  afterAll(async () => {
    await discord?.close();
    await telegram?.close();
    otlp?.server.close();
  });

  const scrape = async (base: string) => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return { text: await res.text() };
  };

  it('counts a publish: accepted at the API, completed and timed per network at the worker, requests by route template', async () => {
    const res = await api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord', 'telegram'], title: 'Counted' });
    expect(res).toMatchObject({ status: 200, body: { all_succeeded: true } });

    const apiMetrics = parsePrometheus((await scrape(apiOps)).text);
    expect(valueOf(apiMetrics, 'herald_uploads_accepted_total', { daemon: 'api', network: 'discord' })).toBe(1);
    expect(valueOf(apiMetrics, 'herald_uploads_accepted_total', { daemon: 'api', network: 'telegram' })).toBe(1);
    expect(valueOf(apiMetrics, 'herald_http_requests_total', { method: 'POST', route: '/api/upload_text', status: '200' })).toBe(1);
    expect(valueOf(apiMetrics, 'herald_http_requests_total', { method: 'POST', route: '/api/herald/users', status: '201' })).toBe(1);
    expect(valueOf(apiMetrics, 'herald_http_request_duration_seconds_count', { method: 'POST', route: '/api/upload_text' })).toBe(1);
    // Connecting checks the credentials with the network from the API: its calls are timed per network and operation.
    expect(valueOf(apiMetrics, 'herald_network_call_duration_seconds_count', { network: 'telegram' })).toBeGreaterThan(0);
    // No raw URL becomes a label.
    expect(apiMetrics.filter((s) => s.name === 'herald_http_requests_total').map((s) => s.labels.route)).not.toContain('/api/herald/users/alice');

    const workerMetrics = parsePrometheus((await scrape(workerOps)).text);
    expect(valueOf(workerMetrics, 'herald_uploads_completed_total', { daemon: 'worker', network: 'discord' })).toBe(1);
    expect(valueOf(workerMetrics, 'herald_uploads_completed_total', { daemon: 'worker', network: 'telegram' })).toBe(1);
    expect(valueOf(workerMetrics, 'herald_uploads_failed_total')).toBe(0);
    expect(valueOf(workerMetrics, 'herald_publish_latency_seconds_count', { network: 'discord' })).toBe(1);
    const calls = workerMetrics.filter((s) => s.name === 'herald_network_call_duration_seconds_count' && s.labels.network === 'discord');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0]!.labels).toMatchObject({ outcome: '2xx', operation: expect.stringMatching(/^POST \/api\/v\d+\/webhooks\/:id\/:id/) });
    expect(valueOf(workerMetrics, 'herald_workflow_task_queue_info', { pool: 'publish', task_queue: stack.env.HERALD_TASK_QUEUE! })).toBe(1);
    // The Temporal SDK's own worker metrics, exported on the same endpoint.
    expect(workerMetrics.some((s) => s.name.startsWith('temporal_'))).toBe(true);
  });

  it('traces a publish: the API request, the workflow and its activities, each network call, in one trace', async () => {
    const res = await api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title: 'Traced' });
    expect(res).toMatchObject({ status: 200, body: { all_succeeded: true } });
    const reqId = res.headers.get('x-herald-req-id')!;
    const request = await eventually(async () => otlp.spans.find((s) => s.attributes['herald.req_id'] === reqId), (s) => s !== undefined, 60_000, 500);
    expect(request).toMatchObject({ name: 'POST /api/upload_text', service: 'herald-api', attributes: { 'http.route': '/api/upload_text', 'http.response.status_code': 200 } });
    const inTrace = () => otlp.spans.filter((s) => s.traceId === request!.traceId);
    // Exported in batches by two processes: wait until the network call of the worker has arrived.
    await eventually(async () => inTrace(), (spans) => spans.some((s) => s.service === 'herald-worker' && s.attributes['herald.network'] === 'discord'), 60_000, 500);
    const spans = inTrace();
    const names = spans.map((s) => s.name);
    // A one-network text post publishes in one step (begin, call, finish: the publishOnlyTarget activity).
    expect(names).toEqual(expect.arrayContaining(['StartWorkflow:uploadWorkflow', 'RunWorkflow:uploadWorkflow', 'RunActivity:publishOnlyTarget']));
    const call = spans.find((s) => s.attributes['herald.network'] === 'discord')!;
    expect(call).toMatchObject({ service: 'herald-worker', attributes: { 'herald.operation': expect.stringMatching(/^POST \/api\/v\d+\/webhooks\/:id\/:id/) } });
    // The network call is a child of that activity.
    const activity = spans.find((s) => s.spanId === call.parentSpanId);
    expect(activity?.name).toBe('RunActivity:publishOnlyTarget');
    expect(JSON.stringify(otlp.spans)).not.toContain(webhookUrl.split('/').pop()!);
  });

  it('counts failures by network and error code, and the account marked for reauth', async () => {
    telegram.fail('revoked', 1);
    const failed = await api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord', 'telegram'], title: 'Half counted' });
    expect(failed.body.results).toMatchObject({ discord: { success: true }, telegram: { success: false } });
    failedRequestId = failed.body.request_id;
    const workerMetrics = parsePrometheus((await scrape(workerOps)).text);
    expect(valueOf(workerMetrics, 'herald_uploads_failed_total', { network: 'telegram', error_code: failed.body.results.telegram.error_code })).toBe(1);
    expect(valueOf(workerMetrics, 'herald_uploads_completed_total', { network: 'discord' })).toBe(3);
    expect(valueOf(workerMetrics, 'herald_accounts_reauth_required_total', { network: 'telegram' })).toBe(1);

    const res = await api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title: '' });
    expect(res.status).toBe(400);
    const bad = await api.post('/api/herald/users/discord/credentials', { profile_username: 'alice', webhook_url: 'https://example.com/hook' });
    expect(bad.status).toBe(400);
    const apiMetrics = parsePrometheus((await scrape(apiOps)).text);
    expect(valueOf(apiMetrics, 'herald_http_requests_total', { route: '/api/upload_text', status: '400' })).toBe(1);
    expect(valueOf(apiMetrics, 'herald_http_requests_total', { route: '/api/herald/users/:platform/credentials', status: '400' })
      + valueOf(apiMetrics, 'herald_http_requests_total', { route: '/api/herald/users/discord/credentials', status: '400' })).toBe(1);
  });

  it('keeps metrics off the public port; serves liveness and readiness on both', async () => {
    // Not on the public port, with or without an API key (no route: 404, no credential asked for).
    expect((await fetch(`${stack.apiUrl}/metrics`)).status).toBe(404);
    expect((await api.get('/metrics')).status).toBe(404);
    expect(await (await fetch(`${stack.apiUrl}/healthz`)).json()).toMatchObject({ success: true });
    expect(await (await fetch(`${stack.apiUrl}/readyz`)).json()).toMatchObject({ success: true, checks: { mongodb: true, redis: true, temporal: true } });
    expect(await (await fetch(`${apiOps}/readyz`)).json()).toMatchObject({ success: true, checks: { mongodb: true, redis: true, temporal: true } });
    const worker = await fetch(`${workerOps}/readyz`);
    expect(worker.status).toBe(200);
    expect(await worker.json()).toMatchObject({ success: true, checks: { mongodb: true, temporal: true, polling: true } });
    expect((await fetch(`${workerOps}/healthz`)).status).toBe(200);
  });

  it('observes the connect page daemon too: a log line per request, its metrics, liveness and readiness on its operator port', async () => {
    const web = stack.web ?? await stack.startWeb();
    const res = await fetch(`${stack.webUrl}/connect?token=not-a-token`);
    const reqId = res.headers.get('x-herald-req-id');
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await eventually(async () => web.output.join('').split('\n').filter((l) => l.includes(reqId!)), (l) => l.length > 0);
    expect(JSON.parse(line[0]!)).toMatchObject({ daemon: 'web', msg: 'request', req_id: reqId, method: 'GET', route: '/connect', status: res.status });
    const metrics = parsePrometheus((await scrape(webOps)).text);
    expect(valueOf(metrics, 'herald_http_requests_total', { daemon: 'web', method: 'GET', route: '/connect', status: String(res.status) })).toBeGreaterThanOrEqual(1);
    expect((await fetch(`${webOps}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${webOps}/readyz`)).json()).toMatchObject({ success: true, checks: { mongodb: true, temporal: true } });
    expect((await fetch(`${stack.webUrl}/metrics`)).status).not.toBe(200);
  });

  it('logs one JSON line per request with the route template, status, latency, account and request id', async () => {
    const res = await api.get('/api/herald/users/alice');
    expect(res.status).toBe(200);
    const reqId = res.headers.get('x-herald-req-id');
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await eventually(async () => stack.api.output.join('').split('\n').filter((l) => l.includes(reqId!)), (l) => l.length > 0);
    const entry = JSON.parse(line[0]!);
    const me = await api.get('/api/herald/me');
    expect(entry).toMatchObject({
      level: 'info', daemon: 'api', msg: 'request', req_id: reqId, method: 'GET', route: '/api/herald/users/:username', status: 200,
      account_id: me.body.account_id, latency_ms: expect.any(Number),
    });
    expect(typeof entry.time).toBe('string');
  });

  it('never logs a secret: API key, secret key, webhook URL, bot token', async () => {
    // Requests that carry secrets where logs could pick them up: a wrong key, a refused connection.
    const key = herald.key;
    await herald.client(`${key}x`).get('/api/herald/me');
    await api.post('/api/herald/users/telegram/credentials', { profile_username: 'alice', bot_token: `${botToken}0`, chat_id: '@nope' });
    await stack.cli('key', 'list', '--email', 'ops@herald.dev');
    const logs = [stack.api.output.join(''), stack.worker!.output.join('')].join('\n');
    expect(logs.length).toBeGreaterThan(1000);
    const webhookToken = webhookUrl.split('/').pop()!;
    for (const secret of [key, key.slice(3), stack.env.HERALD_SECRET_KEY!, webhookToken, botToken, botToken.split(':')[1]!]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(logs.includes(secret)).toBe(false);
    }
    // Every line is JSON.
    for (const line of stack.api.output.join('').split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });

  describe('operator CLI', () => {
    const cli = async (...args: string[]) => {
      const out = await stack.cli(...args);
      expect({ args, code: out.code, stderr: out.code === 0 ? '' : out.stderr }).toEqual({ args, code: 0, stderr: '' });
      return out.stdout;
    };
    const json = async (...args: string[]) => JSON.parse(await cli(...args, '--json'));

    it('lists profiles with each connection state, and shows one', async () => {
      const text = await cli('profiles', 'list', '--email', 'ops@herald.dev');
      expect(text.split('\n')[0]).toMatch(/^USERNAME\s+CREATEDAT\s+CONNECTIONS$/);
      expect(text).toMatch(/alice\s+\S+\s+discord:connected telegram:reauth_required/);
      const shown = await json('profiles', 'show', '--email', 'ops@herald.dev', '--username', 'alice');
      expect(shown).toMatchObject({ username: 'alice', operator: 'ops@herald.dev' });
      expect(shown.connections.map((c: { platform: string; state: string }) => [c.platform, c.state])).toEqual([['discord', 'connected'], ['telegram', 'reauth_required']]);
      expect(JSON.stringify(shown)).not.toContain('sealed');
    });

    it('shows an upload with per-network results, its workflow id and Temporal UI link', async () => {
      const me = await api.get('/api/herald/me');
      const shown = await json('uploads', 'show', '--email', 'ops@herald.dev', '--request-id', failedRequestId);
      const workflowId = `upload:${me.body.account_id}:${failedRequestId}`;
      expect(shown).toMatchObject({ request_id: failedRequestId, status: 'completed', workflow_id: workflowId, temporal_ui: `http://127.0.0.1:8233/namespaces/default/workflows/${encodeURIComponent(workflowId)}` });
      expect(shown.results).toEqual(expect.arrayContaining([
        expect.objectContaining({ platform: 'discord', result: 'published' }),
        expect.objectContaining({ platform: 'telegram', result: 'failed', error_code: expect.any(String) }),
      ]));
      const text = await cli('uploads', 'show', '--email', 'ops@herald.dev', '--request-id', failedRequestId);
      expect(text).toContain(`workflow ${workflowId}`);
      expect(text).toMatch(/telegram\s+failed/);
    });

    it('lists failures since a time and the accounts needing reauth', async () => {
      const failures = await json('uploads', 'failures', '--since', '1h');
      expect(failures).toEqual([expect.objectContaining({ request_id: failedRequestId, platform: 'telegram', operator: 'ops@herald.dev' })]);
      expect(await json('uploads', 'failures', '--since', new Date(Date.now() + 3_600_000).toISOString(), '--email', 'ops@herald.dev')).toEqual([]);
      const reauth = await json('accounts', 'reauth');
      expect(reauth).toEqual(expect.arrayContaining([expect.objectContaining({ operator: 'ops@herald.dev', profile: 'alice', platform: 'telegram', state: 'reauth_required' })]));
      expect(await cli('accounts', 'paused')).toContain('no connections paused');
    });

    it('changes a plan and lists accounts', async () => {
      expect(await cli('accounts', 'plan', '--email', 'ops@herald.dev', '--plan', 'free')).toContain('plan business → free');
      expect(await json('accounts', 'list')).toEqual(expect.arrayContaining([expect.objectContaining({ email: 'ops@herald.dev', plan: 'free' })]));
      expect(await json('accounts', 'plan', '--email', 'ops@herald.dev', '--plan', 'business')).toMatchObject({ from: 'free', to: 'business' });
      const bad = await stack.cli('accounts', 'plan', '--email', 'nobody@herald.dev', '--plan', 'free');
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('No operator account');
    });

    it('retries the failed network of an upload once its account is reconnected', async () => {
      expect(await api.post('/api/herald/users/telegram/credentials', { profile_username: 'alice', bot_token: botToken, chat_id: '@herald_ops' })).toMatchObject({ status: 200 });
      const retried = await json('uploads', 'retry', '--email', 'ops@herald.dev', '--request-id', failedRequestId);
      expect(retried).toMatchObject({ retried: ['telegram'], upload: { retry_count: 1, workflow_id: expect.stringMatching(/:retry-1$/) } });
      const done = await eventually(() => json('uploads', 'show', '--email', 'ops@herald.dev', '--request-id', failedRequestId),
        (u) => u.status === 'completed' && u.results.every((r: { result: string }) => r.result === 'published'), 90_000, 1_000);
      expect(done.results.map((r: { platform: string }) => r.platform).sort()).toEqual(['discord', 'telegram']);
    });
  });
});
