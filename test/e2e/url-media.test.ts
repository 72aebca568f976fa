import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { freePort } from '../support/stack';
import { media, useHerald } from '../support/e2e';

jest.setTimeout(180_000);

/**
 * URL media on the real stack: asynchronous requests answer before the media is downloaded (the
 * worker fetches it in the background, SSRF-checked), synchronous ones fetch first; a URL that
 * cannot be fetched fails the targets after the 202 without sending anything; a private address
 * that is not allow-listed is refused at intake.
 */
describe('URL media', () => {
  let files: Server;
  let filesBase: string;
  const clip = media.clip({ seconds: 3, audio: false });
  /** Requests the file server saw, and how long it holds each response before sending the bytes. */
  const served: string[] = [];
  let holdMs = 0;
  /** While set, the file server also waits for this before sending the bytes: the test opens it. */
  let gate: Promise<void> | null = null;

  beforeAll(async () => {
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
  });
  const herald = useHerald({
    sandbox: true,
    // The file server is on loopback: allow-listed like the simulators (which the sandbox env lists).
    env: ({ sandbox }) => ({ HERALD_MEDIA_FETCH_ALLOW: [sandbox!.env.HERALD_MEDIA_FETCH_ALLOW, new URL(filesBase).host].filter(Boolean).join(',') }),
    account: { email: 'urls@herald.dev' },
    profiles: ['uma'],
  });
  const { api, sandbox } = herald;
  beforeAll(async () => {
    await herald.connect('bluesky', { profile: 'uma' });
  });

  afterAll(async () => {
    await new Promise((resolve) => files?.close(resolve));
  });

  const status = (requestId: string) => api.get(`/api/herald/status?request_id=${encodeURIComponent(requestId)}`);
  const completed = (requestId: string) => herald.waitForCompletion(requestId);

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
