/**
 * YouTube operations on a published video against the YouTube simulator: videos.update with the
 * whole snippet (what is not changed is sent as it is), publishAt only on private videos, other
 * channels' videos refused, delete, thumbnails.set.
 */
import { PlatformError } from '../../../../core/domain/errors';
import type { PlatformAdapter, PlatformCredentials, PublishContext } from '../../../../core/ports/platform';
import { createYoutubePlatform } from '../../../../adapters/platforms/youtube';
import { startYoutubeSimulator, type SimChannel, type YoutubeSimulator } from '../../../../ops/simulators/youtube';
import { collectAll } from '../../../../adapters/platforms/kit/http';
import { drivePublish, mediaFixtures, type MediaFixtures, FIXTURE_TIMEOUT_MS } from '../../../support/platform-harness';

let sim: YoutubeSimulator;
let fx: MediaFixtures;
let youtube: PlatformAdapter;
let client: { clientId: string; clientSecret: string };
let mine: SimChannel;
let other: SimChannel;

beforeAll(async () => {
  sim = await startYoutubeSimulator({ seed: 'yt-posts', processingMs: 20 });
  fx = await mediaFixtures();
  client = sim.createClient({ redirectUris: ['https://herald.example/cb'] });
  mine = sim.createAccount({ title: 'Mine' });
  other = sim.createAccount({ title: 'Other' });
  youtube = createYoutubePlatform({ clientId: client.clientId, clientSecret: client.clientSecret, apiBase: sim.apiBase, authBase: sim.authBase, tokenUrl: sim.tokenUrl, pollIntervalMs: 10, timeoutMs: 5000 });
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
  await sim.close();
  await fx.close();
});

function credentialsFor(channel: SimChannel): PlatformCredentials {
  const t = sim.issueTokens(channel.id, { clientId: client.clientId });
  return { access_token: t.accessToken, refresh_token: t.refreshToken, expires_at: t.expiresAt.toISOString(), channel_id: channel.id };
}
async function publishedVideo(): Promise<string> {
  const ctx: PublishContext = { credentials: credentialsFor(mine), idempotencyKey: `yt-${Date.now()}`, media: fx.access };
  const { outcome } = await drivePublish(youtube, ctx, {
    kind: 'video', title: 'Original title', description: 'Original description', media: [fx.video],
    settings: { tags: ['alpha', 'beta'], categoryId: '22', privacyStatus: 'public', embeddable: true, license: 'youtube', publicStatsViewable: true, selfDeclaredMadeForKids: false },
  }, { maxWaitMs: 20 });
  return outcome.postId;
}
async function refusal(p: Promise<unknown>): Promise<PlatformError> {
  try { await p; } catch (err) { if (err instanceof PlatformError) return err; throw err; }
  throw new Error('expected a refusal');
}
const stored = (id: string) => sim.videos().find((v) => v.id === id)!.resource as { snippet: Record<string, unknown>; status: Record<string, unknown> };

it('changes only what is sent: the rest of the snippet is sent back as it is', async () => {
  const id = await publishedVideo();
  const edited = await youtube.postEditor!.edit!({ credentials: credentialsFor(mine) }, { id }, { title: 'New title', settings: { tags: ['gamma'] } });
  expect(edited).toMatchObject({ id, updated: ['title', 'tags'] });
  expect(stored(id).snippet).toMatchObject({ title: 'New title', description: 'Original description', tags: ['gamma'], categoryId: '22' });
  const put = sim.requests.find((r) => r.method === 'PUT' && r.path === '/youtube/v3/videos')!;
  expect(put.query.part).toBe('snippet');
  // A status change sends the whole status back too.
  await youtube.postEditor!.edit!({ credentials: credentialsFor(mine) }, { id }, { settings: { privacyStatus: 'unlisted' } });
  expect(stored(id).status).toMatchObject({ privacyStatus: 'unlisted', embeddable: true, license: 'youtube' });
  expect(stored(id).snippet).toMatchObject({ title: 'New title', tags: ['gamma'] });
});

it('publishAt needs a private video; other channels cannot change or delete the video', async () => {
  const id = await publishedVideo();
  const at = new Date(Date.now() + 86400_000).toISOString();
  expect((await refusal(youtube.postEditor!.edit!({ credentials: credentialsFor(mine) }, { id }, { settings: { publishAt: at } }))).failure).toEqual({ kind: 'invalid_content', code: 'invalid_publish_at' });
  await youtube.postEditor!.edit!({ credentials: credentialsFor(mine) }, { id }, { settings: { privacyStatus: 'private', publishAt: at } });
  expect(stored(id).status).toMatchObject({ privacyStatus: 'private', publishAt: at });
  // Another channel's video: a refusal of this video (403 not_owner at the API), never a pause of the channel.
  expect((await refusal(youtube.postEditor!.edit!({ credentials: credentialsFor(other) }, { id }, { title: 'Mine now' }))).failure).toEqual({ kind: 'rejected', code: 'not_owner' });
  expect((await refusal(youtube.postEditor!.unpublish!({ credentials: credentialsFor(other) }, { id }))).failure).toEqual({ kind: 'rejected', code: 'not_owner' });
  expect(sim.videos().some((v) => v.id === id)).toBe(true);
  await youtube.postEditor!.unpublish!({ credentials: credentialsFor(mine) }, { id });
  expect(sim.videos().some((v) => v.id === id)).toBe(false);
});

it('sets a thumbnail from an image; refuses types YouTube does not take before sending', async () => {
  const id = await publishedVideo();
  const png = fx.png;
  const image = { contentType: png.contentType, size: png.size, bytes: () => fx.access.read(png.id) };
  const set = await youtube.postEditor!.setThumbnail!({ credentials: credentialsFor(mine) }, { id }, image);
  expect(set.url).toMatch(/^https:\/\/i\.ytimg\.com\//);
  expect(sim.videos().find((v) => v.id === id)!.thumbnail).toMatchObject({ contentType: 'image/png', size: (await collectAll(fx.access.read(png.id))).length });
  const before = sim.requests.length;
  expect((await refusal(youtube.postEditor!.setThumbnail!({ credentials: credentialsFor(mine) }, { id }, { ...image, contentType: 'image/webp' }))).failure).toEqual({ kind: 'invalid_content', code: 'media_type_unsupported' });
  expect(sim.requests.length).toBe(before);
});
