import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createInlineUploadRunner } from '../../adapters/memory/upload-runner';
import { invalidInput } from '../../core/domain/errors';
import type { MediaRef } from '../../core/domain/media';
import type { MediaFetcher } from '../../core/ports/media';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { prepareMedia } from '../../core/usecases/prepare-media';
import { createProfile } from '../../core/usecases/profiles';
import { submitUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { fakeTextPlatform } from '../support/fake-platform';
import { aWorld } from '../support/world';

const clip: MediaRef = {
  id: 'v'.repeat(64), kind: 'video', contentType: 'video/mp4', size: 5000,
  info: { durationSeconds: 12, width: 720, height: 1280, frameRate: 30, videoCodec: 'h264', audioCodec: 'aac', container: 'mov,mp4,m4a,3gp,3g2,mj2' },
};
const pending = (url: string): MediaRef => ({ id: '', kind: 'video', contentType: '', size: 0, source: { url, field: 'video' } });

/** A fetcher over a table of URLs: a MediaRef, or the refusal the real one would throw. */
function tableFetcher(table: Record<string, MediaRef | Error>): MediaFetcher & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async fetch(url) {
      calls.push(url);
      const found = table[url];
      if (!found) throw invalidInput(`video: downloading ${url} answered HTTP 404.`, undefined, 'media_url_unreachable');
      if (found instanceof Error) throw found;
      return found;
    },
    async vet() {},
  };
}

async function world(table: Record<string, MediaRef | Error>) {
  const w = aWorld();
  const tiktok = fakeTextPlatform('tiktok', { endpoints: ['video'], limits: { video: { maxSeconds: 10 } } });
  const youtube = fakeTextPlatform('youtube', { endpoints: ['video'] });
  const fetcher = tableFetcher(table);
  const base = { ...w.deps, platforms: createPlatformRegistry([tiktok.adapter, youtube.adapter]), mediaFetcher: fetcher };
  const deps = { ...base, runner: createInlineUploadRunner(base) };
  const { account } = await w.operator('business');
  await createProfile(deps, account, { username: 'alice' });
  for (const p of ['tiktok', 'youtube'] as const) await connectWithCredentials(deps, account, p, { profile_username: 'alice', secret: 'good' });
  const post = (over: Partial<UploadInput>): UploadInput => ({
    kind: 'video', profileUsername: 'alice', platforms: ['youtube'], title: 'clip', media: [], fields: {}, async: true, warnings: [], syncTimeoutMs: 1000, ...over,
  });
  return { w, deps, account, tiktok, youtube, fetcher, post };
}

describe('URL media fetched in the background', () => {
  it('downloads the URL, stores the described media on the upload and publishes it', async () => {
    const { deps, account, youtube, fetcher, post } = await world({ 'https://cdn.example/a.mp4': clip });
    const { upload } = await submitUpload(deps, account, post({ media: [pending('https://cdn.example/a.mp4')] }));
    await deps.runner.settled();
    const stored = (await deps.storage.uploads.find(account.id, upload.requestId))!;
    expect(fetcher.calls).toEqual(['https://cdn.example/a.mp4']);
    expect(stored.content.media).toEqual([{ ...clip, source: { url: 'https://cdn.example/a.mp4', field: 'video' } }]);
    expect(stored).toMatchObject({ status: 'completed', results: { youtube: { success: true } } });
    expect(youtube.posts[0]!.post.media[0]!.id).toBe(clip.id);
  });

  it('fails only the network whose limits the fetched media breaks, naming the limit', async () => {
    const { deps, account, tiktok, youtube, post } = await world({ 'https://cdn.example/a.mp4': clip });
    const { upload } = await submitUpload(deps, account, post({ platforms: ['tiktok', 'youtube'], media: [pending('https://cdn.example/a.mp4')] }));
    await deps.runner.settled();
    const stored = (await deps.storage.uploads.find(account.id, upload.requestId))!;
    expect(stored.results.tiktok).toMatchObject({
      success: false, error_code: 'video_too_long', failure_stage: 'media', violations: [expect.objectContaining({ limit: 10, actual: 12 })],
    });
    expect(stored.results.tiktok!.error).toContain('tiktok: the video lasts 12 s; the limit is 10 s.');
    expect(stored.results.youtube).toMatchObject({ success: true });
    expect(tiktok.posts).toHaveLength(0);
    expect(youtube.posts).toHaveLength(1);
  });

  it('fails every target with the download refusal and sends nothing; the upload completes', async () => {
    const forbidden = invalidInput('Media URL http://10.0.0.5 points to a private or reserved address; use a public URL.', undefined, 'media_url_forbidden');
    const { deps, account, youtube, post, w } = await world({ 'https://cdn.example/private.mp4': forbidden });
    for (const [url, code] of [['https://cdn.example/missing.mp4', 'media_url_unreachable'], ['https://cdn.example/private.mp4', 'media_url_forbidden']] as const) {
      const { upload } = await submitUpload(deps, account, post({ platforms: ['tiktok', 'youtube'], media: [pending(url)] }));
      await deps.runner.settled();
      const stored = (await deps.storage.uploads.find(account.id, upload.requestId))!;
      expect(stored.status).toBe('completed');
      for (const p of ['tiktok', 'youtube'] as const) {
        expect(stored.results[p]).toMatchObject({ success: false, error_code: code, failure_stage: 'media' });
        expect(stored.results[p]!.error).toMatch(/^The media could not be fetched, nothing was sent: /);
      }
    }
    expect(youtube.posts).toHaveLength(0);
    // Every finished target is announced.
    expect(w.notifier.events.filter((e) => e.event === 'upload_completed')).toHaveLength(4);
  });

  it('lets unexpected errors escape so the activity is retried, and does nothing for uploads without URL media', async () => {
    const { deps, account, post } = await world({ 'https://cdn.example/a.mp4': new Error('ECONNRESET from the store') });
    const { upload } = await submitUpload(deps, account, post({ media: [clip] }));
    await deps.runner.settled();
    expect(await prepareMedia(deps, { accountId: account.id, requestId: upload.requestId })).toEqual({ publishable: false });
    const other = await submitUpload({ ...deps, runner: { ...deps.runner, start: async () => {} } }, account, post({ title: 'x', media: [pending('https://cdn.example/a.mp4')] }));
    await expect(prepareMedia(deps, { accountId: account.id, requestId: other.upload.requestId })).rejects.toThrow('ECONNRESET');
  });
});
