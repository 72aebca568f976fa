import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { createUrlMediaFetcher } from '../../adapters/media/url-fetcher';

describe('fetching media from URLs (SSRF rules)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-fetch-'));
  const store = createLocalMediaStore(dir);
  let server: Server;
  let base: string;
  let hostPort: string;
  const video = Buffer.alloc(4096, 7);

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/clip.mp4') return void res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) }).end(video);
      if (req.url === '/page') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
      if (req.url === '/to-metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/to-clip') return void res.writeHead(302, { location: '/clip.mp4' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    hostPort = `127.0.0.1:${(server.address() as { port: number }).port}`;
    base = `http://${hostPort}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  const fetcher = (allow: string[] = [hostPort], maxBytes = 1_000_000) => createUrlMediaFetcher(store, { allow, maxBytes, timeoutMs: 5000 });
  const isVideo = (t: string) => t.startsWith('video/');

  it('downloads an allowed URL into the store, following a redirect', async () => {
    const stored = await fetcher().fetchInto(`${base}/to-clip`, isVideo, 'video');
    expect(stored).toMatchObject({ size: 4096, contentType: 'video/mp4', filename: 'clip.mp4' });
    expect(await store.stat(stored.id)).toMatchObject({ size: 4096 });
  });

  it('refuses loopback, link-local (metadata) and private addresses that are not allow-listed', async () => {
    await expect(fetcher([]).fetchInto(`${base}/clip.mp4`, isVideo, 'video')).rejects.toMatchObject({ kind: 'invalid_input', errorCode: 'media_url_forbidden' });
    await expect(fetcher([]).fetchInto('http://169.254.169.254/latest/meta-data/', isVideo, 'video')).rejects.toMatchObject({ errorCode: 'media_url_forbidden' });
    await expect(fetcher([]).fetchInto('http://10.1.2.3/x.mp4', isVideo, 'video')).rejects.toMatchObject({ errorCode: 'media_url_forbidden' });
    await expect(fetcher([]).fetchInto('http://[::1]:9/x.mp4', isVideo, 'video')).rejects.toMatchObject({ errorCode: 'media_url_forbidden' });
    await expect(fetcher([]).fetchInto('http://localhost:9/x.mp4', isVideo, 'video')).rejects.toMatchObject({ errorCode: 'media_url_forbidden' });
  });

  it('checks every redirect hop', async () => {
    await expect(fetcher().fetchInto(`${base}/to-metadata`, isVideo, 'video')).rejects.toMatchObject({ errorCode: 'media_url_forbidden' });
  });

  it('refuses other schemes, wrong content types and files over the cap', async () => {
    await expect(fetcher().fetchInto('file:///etc/passwd', isVideo, 'video')).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(fetcher().fetchInto(`${base}/page`, isVideo, 'video')).rejects.toMatchObject({ errorCode: 'media_type_unsupported' });
    await expect(fetcher([hostPort], 1000).fetchInto(`${base}/clip.mp4`, isVideo, 'video')).rejects.toMatchObject({ errorCode: 'media_too_large' });
    await expect(fetcher().fetchInto(`${base}/missing.mp4`, isVideo, 'video')).rejects.toMatchObject({ errorCode: 'media_url_unreachable' });
  });
});
