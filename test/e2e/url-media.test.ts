import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../../apps/sandbox/main';
import { apiClient, eventually, freePort, startStack, type Stack } from '../support/stack';

jest.setTimeout(180_000);

/**
 * URL media on the real stack: asynchronous requests answer before the media is downloaded (the
 * worker fetches it in the background, SSRF-checked), synchronous ones fetch first; a URL that
 * cannot be fetched fails the targets after the 202 without sending anything; a private address
 * that is not allow-listed is refused at intake.
 */
describe('URL media', () => {
  let sandbox: Sandbox;
  let stack: Stack;
  let api: ReturnType<typeof apiClient>;
  let files: Server;
  let filesBase: string;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-e2e-urls-'));
  const clip = path.join(dir, 'clip.mp4');
  /** Requests the file server saw, and how long it holds each response before sending the bytes. */
  const served: string[] = [];
  let holdMs = 0;
  /** While set, the file server also waits for this before sending the bytes: the test opens it. */
  let gate: Promise<void> | null = null;

  beforeAll(async () => {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=720x1280:rate=30:duration=3', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', clip]);
    const bytes = readFileSync(clip);
    files = createServer((req, res) => {
      served.push(req.url ?? '');
      if (req.url !== '/media/clip.mp4') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such file');
        return;
      }
      const send = () => res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes.length) }).end(bytes);
      void (gate ?? Promise.resolve()).then(() => setTimeout(send, holdMs));
    });
    const filesPort = await freePort();
    await new Promise<void>((resolve) => files.listen(filesPort, '127.0.0.1', resolve));
    filesBase = `http://127.0.0.1:${filesPort}`;

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    sandbox = await startSandbox({ ports: 'random', heraldPublicBaseUrl: base, processingMs: 50 });
    // The file server is on loopback: allow-listed like the simulators (which the sandbox env lists).
    const allow = [sandbox.env.HERALD_MEDIA_FETCH_ALLOW, `127.0.0.1:${filesPort}`].filter(Boolean).join(',');
    stack = await startStack({ ...sandbox.env, HERALD_API_PORT: String(port), HERALD_PUBLIC_BASE_URL: base, HERALD_MEDIA_FETCH_ALLOW: allow });
    await stack.startWorker();
    api = apiClient(stack.apiUrl, await stack.newApiKey('urls@herald.dev'));
    expect((await api.post('/api/herald/users', { username: 'uma' })).status).toBe(201);
    const bsky = await api.post('/api/herald/users/bluesky/credentials', {
      profile_username: 'uma', identifier: sandbox.env.SANDBOX_BLUESKY_IDENTIFIER, app_password: sandbox.env.SANDBOX_BLUESKY_APP_PASSWORD,
    });
    expect(bsky).toMatchObject({ status: 200, body: { success: true } });
  });

  afterAll(async () => {
    await stack?.stop();
    await sandbox?.close();
    await new Promise((resolve) => files?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const status = (requestId: string) => api.get(`/api/herald/status?request_id=${encodeURIComponent(requestId)}`);
  const completed = (requestId: string) => eventually(() => status(requestId), (r) => r.body.status === 'completed', 60_000);

  it('answers an asynchronous request before the download, then fetches the video in the background and publishes it', async () => {
    // The file is not sent until the test has its answer: an API that waited for the download
    // would never answer (and the test would time out), however fast or slow the machine.
    let open!: () => void;
    gate = new Promise<void>((resolve) => { open = resolve; });
    const res = await api.post('/api/upload', { user: 'uma', 'platform[]': ['bluesky'], title: 'From a URL', video: `${filesBase}/media/clip.mp4`, async_upload: 'true' });
    expect(res.status).toBe(202);
    expect((await status(res.body.request_id)).body.status).not.toBe('completed');
    gate = null;
    open();
    const done = await completed(res.body.request_id);
    expect(done.body.results.bluesky).toMatchObject({ success: true, post_id: expect.any(String) });
    expect(served.filter((u) => u === '/media/clip.mp4')).toHaveLength(1);
    // The simulator got the very bytes the URL served.
    const job = sandbox.simulators.bluesky.videoJobs().at(-1)!;
    expect(job.size).toBe(readFileSync(clip).length);
  });

  it('fetches before answering a synchronous request', async () => {
    holdMs = 1500;
    const started = Date.now();
    const res = await api.post('/api/upload', { user: 'uma', 'platform[]': ['bluesky'], title: 'Synchronous URL', video: `${filesBase}/media/clip.mp4` });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(holdMs);
    expect(res.body.results.bluesky).toMatchObject({ success: true });
  });

  it('fails the targets after the 202 when the URL cannot be fetched, sending nothing', async () => {
    holdMs = 0;
    const jobsBefore = sandbox.simulators.bluesky.videoJobs().length;
    const res = await api.post('/api/upload', { user: 'uma', 'platform[]': ['bluesky'], title: 'Missing file', video: `${filesBase}/media/gone.mp4`, async_upload: 'true' });
    expect(res.status).toBe(202);
    const done = await completed(res.body.request_id);
    expect(done.body.results.bluesky).toMatchObject({ success: false, error_code: 'media_url_unreachable', failure_stage: 'media' });
    expect(done.body.results.bluesky.error).toContain('answered HTTP 404');
    expect(sandbox.simulators.bluesky.videoJobs()).toHaveLength(jobsBefore);
  });

  it('refuses a private address that is not allow-listed at intake, even for an asynchronous request', async () => {
    const res = await api.post('/api/upload', { user: 'uma', 'platform[]': ['bluesky'], title: 'Metadata', video: 'http://169.254.169.254/latest/meta-data/x.mp4', async_upload: 'true' });
    expect(res).toMatchObject({ status: 400, body: { success: false, error_code: 'media_url_forbidden' } });
    expect(res.body.message).toContain('points to a private or reserved address');
  });
});
