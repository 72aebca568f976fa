import { createHash } from 'node:crypto';
import { postFirstComment } from '../../support/first-comment';
import { PlatformError } from '../../../core/domain/errors';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaAccess, MediaRef, PlatformAdapter, PublishContext, PublishPost } from '../../../core/ports/platform';
import {
  createYoutubePlatform, msUntilPacificMidnight, YOUTUBE_SCOPES, type YoutubePlatformOptions,
} from '../../../adapters/platforms/youtube';
import { startYoutubeSimulator, type YoutubeSimulator } from '../../../ops/simulators/youtube';
import { drivePublish, mediaFixtures, type MediaFixtures , FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';
import { collectAll } from '../../../adapters/platforms/kit/http';

const REDIRECT = 'https://herald.example/oauth/youtube/callback';
const CHUNK = 256 * 1024;
const FIXED_NOW = new Date('2025-01-15T20:00:00Z'); // 12:00 PST

let fx: MediaFixtures;
let sim: YoutubeSimulator;
let client: { clientId: string; clientSecret: string };
let yt: PlatformAdapter;
/** Small in-memory files (subtitles) next to the fixture store. */
const memory = new Map<string, Buffer>();
let media: MediaAccess;

const adapterFor = (s: YoutubeSimulator, extra: Partial<YoutubePlatformOptions> = {}) => createYoutubePlatform({
  clientId: client.clientId, clientSecret: client.clientSecret,
  apiBase: s.apiBase, authBase: s.authBase, tokenUrl: s.tokenUrl,
  chunkSizeBytes: CHUNK, pollIntervalMs: 20, timeoutMs: 5000, ...extra,
});

beforeAll(async () => {
  fx = await mediaFixtures();
  media = {
    read(id, range) {
      const bytes = memory.get(id);
      if (!bytes) return fx.access.read(id, range);
      return (async function* () { yield range ? bytes.subarray(range.start, range.end) : bytes; })();
    },
    publicUrl: (id) => fx.access.publicUrl(id),
    rendition: fx.access.rendition,
  };
  sim = await startYoutubeSimulator({ seed: 'contract', processingMs: 30 });
  client = sim.createClient({ redirectUris: [REDIRECT] });
  yt = adapterFor(sim);
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
  await sim.close();
  await fx.close();
});
beforeEach(() => sim.reset());

function memFile(filename: string, contentType: string, text: string): MediaRef {
  const bytes = Buffer.from(text);
  const id = createHash('sha256').update(bytes).digest('hex');
  memory.set(id, bytes);
  return { id, kind: 'image', contentType, size: bytes.length, filename };
}

function channel(opts: { verified?: boolean; dailyUploadLimit?: number; scopes?: string[] } = {}) {
  const account = sim.createAccount({ title: 'Herald Labs', handle: '@heraldlabs', verified: opts.verified, dailyUploadLimit: opts.dailyUploadLimit });
  const tokens = sim.issueTokens(account.id, { clientId: client.clientId, scopes: opts.scopes });
  const ctx: PublishContext = {
    credentials: { access_token: tokens.accessToken, refresh_token: tokens.refreshToken, expires_at: tokens.expiresAt.toISOString(), channel_id: account.id },
    idempotencyKey: 'acct:req-1:youtube',
    media,
  };
  return { account, tokens, ctx };
}

const resolve = (fields: Record<string, unknown>, endpoint: 'video' | 'photo' = 'video') =>
  resolveSettings('youtube', yt.descriptor.settings, fields, { endpoint, mediaCount: 1 });

function videoPost(video: MediaRef, fields: Record<string, unknown> = {}, title = 'Release notes, in a minute'): PublishPost {
  const resolved = resolve(fields);
  if (resolved.violations.length) throw new Error(`unexpected violations: ${JSON.stringify(resolved.violations)}`);
  const description = typeof fields.description === 'string' ? fields.description : undefined;
  return { kind: 'video', title, ...(description ? { description } : {}), media: [video], settings: resolved.values };
}

const requestsTo = (method: string, path: string) => sim.requests.filter((r) => r.method === method && r.path === path);
const uploads = () => sim.requests.filter((r) => r.path === '/upload/youtube/v3/videos');
const contentRanges = () => requestsTo('PUT', '/upload/youtube/v3/videos').map((r) => r.headers['content-range']);

describe('descriptor and settings', () => {
  it('declares an OAuth network for videos with the spec limits', () => {
    expect(yt.descriptor).toMatchObject({
      id: 'youtube', connect: 'oauth', endpoints: ['video'],
      limits: { textMaxChars: 100, video: { maxBytes: 256 * 1024 ** 3, maxSeconds: 12 * 3600 } },
    });
    const names = yt.descriptor.settings.fields.map((f) => f.name);
    for (let n = 0; n <= 9; n += 1) expect(names).toEqual(expect.arrayContaining([`youtube_subtitle_file_${n}`, `youtube_subtitle_language_${n}`, `youtube_subtitle_name_${n}`]));
  });

  it('applies the defaults', () => {
    expect(resolve({})).toMatchObject({
      violations: [],
      values: {
        categoryId: '22', privacyStatus: 'public', embeddable: true, license: 'youtube', publicStatsViewable: true,
        selfDeclaredMadeForKids: false, containsSyntheticMedia: false, hasPaidProductPlacement: false, notifySubscribers: true,
      },
    });
  });

  it('folds aliases into the canonical names; the platform value wins over is_ai_generated', () => {
    const { values, violations } = resolve({
      description: 'Long form', youtube_privacyStatus: 'unlisted', tags: 'release, herald ,video', is_ai_generated: 'true',
      youtube_playlist_id: 'PLa,PLb', youtube_thumbnail_url: 'https://cdn.example/t.jpg',
    });
    expect(violations).toEqual([]);
    expect(values).toMatchObject({
      youtube_description: 'Long form', privacyStatus: 'unlisted', tags: ['release', 'herald', 'video'], containsSyntheticMedia: true,
      youtube_playlist_id: ['PLa', 'PLb'], thumbnail_url: 'https://cdn.example/t.jpg',
    });
    expect(resolve({ is_ai_generated: 'true', containsSyntheticMedia: 'false' }).values.containsSyntheticMedia).toBe(false);
  });

  it.each([
    [{ privacyStatus: 'secret' }, 'privacyStatus'],
    [{ license: 'gpl' }, 'license'],
    [{ youtube_title: 'x'.repeat(101) }, 'youtube_title'],
    [{ youtube_title: 'a <b> title' }, 'youtube_title'],
    [{ defaultLanguage: 'english please' }, 'defaultLanguage'],
    [{ categoryId: 'music' }, 'categoryId'],
    [{ publishAt: '2001-01-01T00:00:00Z' }, 'publishAt'],
    [{ recordingDate: 'yesterday' }, 'recordingDate'],
    [{ tags: Array.from({ length: 60 }, (_, i) => `tag number ${i}`) }, 'tags'],
    [{ youtube_description: 'é'.repeat(2600) }, 'youtube_description'],
  ])('refuses %j', (fields, field) => {
    expect(resolve(fields).violations).toEqual([expect.objectContaining({ field })]);
  });

  it('refuses allowedCountries and blockedCountries: the Data API cannot set country restrictions', () => {
    for (const field of ['allowedCountries', 'blockedCountries', 'youtube_allowedCountries']) {
      const canonical = field.replace(/^youtube_/, '');
      expect(resolve({ [field]: 'US,DE' }).violations).toEqual([
        { field: canonical, message: expect.stringMatching(/cannot be applied.*regionRestriction is read-only.*YouTube Studio/) },
      ]);
    }
  });

  it('requires the subtitle language with each subtitle file, in every indexed slot', () => {
    const srt = memFile('en.srt', 'application/x-subrip', '1\n00:00:00,000 --> 00:00:01,000\nHi\n');
    expect(resolve({ youtube_subtitle_file: srt }).violations).toEqual([expect.objectContaining({ field: 'youtube_subtitle_language' })]);
    expect(resolve({ youtube_subtitle_file_3: srt }).violations).toEqual([expect.objectContaining({ field: 'youtube_subtitle_language_3' })]);
    expect(resolve({ youtube_subtitle_language_4: 'de' }).violations).toEqual([expect.objectContaining({ field: 'youtube_subtitle_file_4' })]);
    expect(resolve({ youtube_subtitle_file_0: srt, youtube_subtitle_language_0: 'pt-BR' }).violations).toEqual([]);
    const doc = memFile('notes.docx', 'application/octet-stream', 'nope');
    expect(resolve({ youtube_subtitle_file: doc, youtube_subtitle_language: 'en' }).violations).toEqual([expect.objectContaining({ field: 'youtube_subtitle_file' })]);
  });

  it('checks the thumbnail file type and size', () => {
    expect(resolve({ thumbnail: fx.png }).violations).toEqual([]);
    expect(resolve({ thumbnail: { ...fx.png, contentType: 'image/webp' } }).violations).toEqual([expect.objectContaining({ field: 'thumbnail' })]);
    expect(resolve({ thumbnail: { ...fx.png, size: 3 * 1024 * 1024 } }).violations).toEqual([expect.objectContaining({ field: 'thumbnail' })]);
  });

  it('ignores its fields on endpoints YouTube does not serve, with a warning', () => {
    const resolved = resolve({ privacyStatus: 'private' }, 'photo');
    expect(resolved.values).toEqual({});
    expect(resolved.warnings).toEqual([expect.stringContaining('privacyStatus')]);
  });
});

describe('connect', () => {
  const verifier = 'v'.repeat(43) + 'erifier-for-the-contract-test';
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  it('builds the consent URL with the client, both scopes, offline access, state and the S256 challenge', () => {
    const url = new URL(yt.oauth!.authorizeUrl({ state: 'st-123', redirectUri: REDIRECT, codeChallenge: challenge }));
    expect(`${url.origin}${url.pathname}`).toBe(`${sim.authBase}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: client.clientId, redirect_uri: REDIRECT, response_type: 'code', scope: YOUTUBE_SCOPES.join(' '),
      access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true', state: 'st-123',
      code_challenge: challenge, code_challenge_method: 'S256',
    });
    expect(yt.oauth!.pkce).toBe(true);
  });

  it('goes through the consent page and exchanges the code (with the verifier) for tokens and the channel identity', async () => {
    const account = sim.createAccount({ title: 'Consent Channel', handle: '@consent', avatarUrl: 'https://yt3.example/avatar.jpg' });
    const authorize = yt.oauth!.authorizeUrl({ state: 'st-9', redirectUri: REDIRECT, codeChallenge: challenge });
    const page = await fetch(authorize);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Consent Channel');

    const form = new URLSearchParams({ ...Object.fromEntries(new URL(authorize).searchParams), channel_id: account.id, decision: 'approve' });
    const approved = await fetch(`${sim.authBase}/o/oauth2/v2/auth`, { method: 'POST', body: form, redirect: 'manual' });
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-9');

    const connected = await yt.oauth!.exchangeCode({ code: back.searchParams.get('code')!, redirectUri: REDIRECT, codeVerifier: verifier });
    expect(connected.identity).toEqual({ platformUserId: account.id, handle: '@consent', displayName: 'Consent Channel', avatarUrl: 'https://yt3.example/avatar.jpg' });
    expect(connected.credentials).toEqual({
      access_token: expect.stringMatching(/^ya29\./), refresh_token: expect.stringMatching(/^1\/\/0/),
      expires_at: expect.any(String), scope: YOUTUBE_SCOPES.join(' '), channel_id: account.id,
    });
    expect(Date.parse(connected.credentials.expires_at!) - Date.now()).toBeGreaterThan(3500_000);
    const [tokenCall] = requestsTo('POST', '/token');
    expect(tokenCall!.body).toEqual({
      grant_type: 'authorization_code', code: back.searchParams.get('code'), redirect_uri: REDIRECT, code_verifier: verifier,
      client_id: client.clientId, client_secret: client.clientSecret,
    });
    expect(requestsTo('GET', '/youtube/v3/channels')[0]).toMatchObject({ query: { part: 'snippet', mine: 'true' } });
  });

  it('a denied consent comes back with error=access_denied', async () => {
    const account = sim.createAccount({ title: 'Denier' });
    const authorize = yt.oauth!.authorizeUrl({ state: 'st-d', redirectUri: REDIRECT, codeChallenge: challenge });
    const form = new URLSearchParams({ ...Object.fromEntries(new URL(authorize).searchParams), channel_id: account.id, decision: 'deny' });
    const denied = await fetch(`${sim.authBase}/o/oauth2/v2/auth`, { method: 'POST', body: form, redirect: 'manual' });
    expect(Object.fromEntries(new URL(denied.headers.get('location')!).searchParams)).toEqual({ state: 'st-d', error: 'access_denied' });
  });

  it('a wrong PKCE verifier is refused as invalid_grant', async () => {
    const account = sim.createAccount({ title: 'Pkce' });
    const code = sim.issueAuthCode(account.id, { clientId: client.clientId, redirectUri: REDIRECT, codeChallenge: challenge, codeChallengeMethod: 'S256' });
    await expect(yt.oauth!.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: 'not-the-verifier' }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'invalid_grant' }, upstream: { status: 400, code: 'invalid_grant' } });
  });

  it('refuses a connection without both scopes, before reading the channel', async () => {
    const account = sim.createAccount({ title: 'Partial' });
    const code = sim.issueAuthCode(account.id, { clientId: client.clientId, redirectUri: REDIRECT, scopes: [YOUTUBE_SCOPES[0]] });
    await expect(yt.oauth!.exchangeCode({ code, redirectUri: REDIRECT }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'oauth_scope_missing' } });
    expect(requestsTo('GET', '/youtube/v3/channels')).toHaveLength(0);
  });

  it('refresh renews the access token and keeps the refresh token Google did not rotate', async () => {
    const { ctx } = channel();
    const renewed = await yt.refresher!.refresh(ctx.credentials);
    expect(renewed.access_token).not.toBe(ctx.credentials.access_token);
    expect(renewed.refresh_token).toBe(ctx.credentials.refresh_token);
    expect(renewed.channel_id).toBe(ctx.credentials.channel_id);
    expect(requestsTo('POST', '/token')[0]!.body).toMatchObject({ grant_type: 'refresh_token', refresh_token: ctx.credentials.refresh_token });
    // The renewed token publishes.
    await drivePublish(yt, { ...ctx, credentials: renewed }, videoPost(fx.video));
    expect(sim.videos()).toHaveLength(1);
  });


  it('computes expires_at of a refreshed token from the injected clock', async () => {
    const clock = new Date('2001-02-03T04:05:06Z');
    const { ctx } = channel();
    const renewed = await adapterFor(sim, { now: () => clock }).refresher!.refresh(ctx.credentials);
    const at = Date.parse(renewed.expires_at!);
    expect(at).toBeGreaterThan(clock.getTime());
    expect(at).toBeLessThan(clock.getTime() + 400 * 86400_000);
  });

  it('stores a rotated refresh token; the old one then stops working', async () => {
    const rotating = await startYoutubeSimulator({ seed: 'rotating', rotateRefreshTokens: true });
    try {
      const c = rotating.createClient({ redirectUris: [REDIRECT] });
      const adapter = createYoutubePlatform({ clientId: c.clientId, clientSecret: c.clientSecret, apiBase: rotating.apiBase, authBase: rotating.authBase, tokenUrl: rotating.tokenUrl });
      const account = rotating.createAccount({ title: 'Rotating' });
      const tokens = rotating.issueTokens(account.id, { clientId: c.clientId });
      const first = { access_token: tokens.accessToken, refresh_token: tokens.refreshToken, expires_at: tokens.expiresAt.toISOString() };
      const renewed = await adapter.refresher!.refresh(first);
      expect(renewed.refresh_token).not.toBe(first.refresh_token);
      await expect(adapter.refresher!.refresh(first)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'invalid_grant' } });
      await adapter.refresher!.refresh(renewed);
    } finally {
      await rotating.close();
    }
  });

  it('a revoked grant makes refresh auth_expired', async () => {
    const { account, ctx } = channel();
    sim.revokeTokens(account.id);
    await expect(yt.refresher!.refresh(ctx.credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'invalid_grant' } });
  });
});

describe('publish', () => {
  it('uploads a landscape video in 256 KiB chunks, mapping every setting onto the video resource', async () => {
    const { account, ctx } = channel();
    const post = videoPost(fx.landscapeVideo, {
      description: 'What changed', tags: 'release,herald', categoryId: '28', privacyStatus: 'unlisted', embeddable: 'false',
      license: 'creativeCommon', publicStatsViewable: 'false', selfDeclaredMadeForKids: 'false', is_ai_generated: 'true',
      defaultLanguage: 'en', defaultAudioLanguage: 'en-US', hasPaidProductPlacement: 'true', recordingDate: '2024-05-01',
      notifySubscribers: 'false',
    });
    const { outcome } = await drivePublish(yt, ctx, post);

    const [init] = uploads();
    expect(init).toMatchObject({
      method: 'POST',
      query: { uploadType: 'resumable', part: 'snippet,status,paidProductPlacementDetails,recordingDetails', notifySubscribers: 'false' },
      headers: {
        authorization: `Bearer ${ctx.credentials.access_token}`,
        'x-upload-content-length': String(fx.landscapeVideo.size), 'x-upload-content-type': 'video/mp4',
      },
    });
    expect(init!.body).toEqual({
      snippet: { title: 'Release notes, in a minute', description: 'What changed', categoryId: '28', tags: ['release', 'herald'], defaultLanguage: 'en', defaultAudioLanguage: 'en-US' },
      status: { privacyStatus: 'unlisted', embeddable: false, license: 'creativeCommon', publicStatsViewable: false, selfDeclaredMadeForKids: false, containsSyntheticMedia: true },
      paidProductPlacementDetails: { hasPaidProductPlacement: true },
      recordingDetails: { recordingDate: '2024-05-01T00:00:00.000Z' },
    });
    const total = fx.landscapeVideo.size;
    expect(total).toBeGreaterThan(2 * CHUNK);
    expect(contentRanges()).toEqual([`bytes 0-${CHUNK - 1}/${total}`, `bytes ${CHUNK}-${2 * CHUNK - 1}/${total}`, `bytes ${2 * CHUNK}-${total - 1}/${total}`]);

    const [video] = sim.videos(account.id);
    expect(video!.sha256).toBe(fx.landscapeVideo.id);
    expect(outcome).toEqual({
      postId: video!.id, url: `https://www.youtube.com/watch?v=${video!.id}`, warnings: [],
      extra: { short: false, processing_status: 'succeeded' },
    });
    expect(requestsTo('GET', '/youtube/v3/videos').at(-1)).toMatchObject({ query: { part: 'status,processingDetails', id: video!.id } });
  });

  it('defaults the description to the title and classifies a short vertical video as a Short (no thumbnail)', async () => {
    const { ctx } = channel();
    const { outcome } = await drivePublish(yt, ctx, videoPost(fx.video, { thumbnail: fx.png }, 'Vertical teaser'));
    expect(uploads()[0]!.body).toMatchObject({ snippet: { title: 'Vertical teaser', description: 'Vertical teaser', categoryId: '22' }, status: { privacyStatus: 'public' } });
    expect(outcome.url).toBe(`https://www.youtube.com/shorts/${outcome.postId}`);
    expect(outcome.extra).toMatchObject({ short: true });
    expect(outcome.warnings).toEqual([expect.stringMatching(/thumbnail.*Shorts/)]);
    expect(requestsTo('POST', '/upload/youtube/v3/thumbnails/set')).toHaveLength(0);
  });

  it('youtube_title and youtube_description override title and description', async () => {
    const { ctx } = channel();
    await drivePublish(yt, ctx, videoPost(fx.video, { youtube_title: 'YT title', youtube_description: 'YT text', description: 'common text' }));
    expect(uploads()[0]!.body).toMatchObject({ snippet: { title: 'YT title', description: 'YT text' } });
  });

  it('sets the thumbnail file on a regular video', async () => {
    const { account, ctx } = channel();
    const { outcome } = await drivePublish(yt, ctx, videoPost(fx.landscapeVideo, { thumbnail: fx.png }));
    const [set] = requestsTo('POST', '/upload/youtube/v3/thumbnails/set');
    expect(set).toMatchObject({ query: { videoId: outcome.postId, uploadType: 'media' }, headers: { 'content-type': 'image/png' }, body: { size: fx.png.size } });
    expect(sim.videos(account.id)[0]!.thumbnail).toEqual({ contentType: 'image/png', size: fx.png.size });
    expect(outcome.warnings).toEqual([]);
  });

  it('fetches thumbnail_url and uploads its bytes', async () => {
    const { account, ctx } = channel();
    const jpeg = fx.images[0]!;
    await drivePublish(yt, ctx, videoPost(fx.landscapeVideo, { thumbnail_url: fx.access.publicUrl(jpeg.id) }));
    expect(sim.videos(account.id)[0]!.thumbnail).toEqual({ contentType: 'image/jpeg', size: jpeg.size });
  });

  it('reports a refused thumbnail in thumbnail_error and still publishes', async () => {
    const { ctx } = channel({ verified: false });
    const { outcome } = await drivePublish(yt, ctx, videoPost(fx.landscapeVideo, { thumbnail: fx.png }));
    expect(outcome.extra).toMatchObject({ processing_status: 'succeeded', thumbnail_error: expect.stringMatching(/permissions to upload and set custom video thumbnails/) });
    expect(outcome.warnings).toEqual([expect.stringMatching(/^The thumbnail was not set/)]);
  });

  it('reports a thumbnail_url that does not answer with an image', async () => {
    const { ctx } = channel();
    const { outcome } = await drivePublish(yt, ctx, videoPost(fx.landscapeVideo, { thumbnail_url: `${fx.publicBase}/media/${'0'.repeat(64)}` }));
    expect(outcome.extra).toMatchObject({ thumbnail_error: 'thumbnail_url answered HTTP 404.' });
    expect(requestsTo('POST', '/upload/youtube/v3/thumbnails/set')).toHaveLength(0);
  });

  it('adds the video to each playlist, best effort', async () => {
    const { account, ctx } = channel();
    const mine = sim.createPlaylist(account.id, 'Releases');
    const { outcome } = await drivePublish(yt, ctx, videoPost(fx.video, { youtube_playlist_id: `${mine},PLdoesnotexist` }));
    expect(requestsTo('POST', '/youtube/v3/playlistItems')[0]!.body).toEqual({ snippet: { playlistId: mine, resourceId: { kind: 'youtube#video', videoId: outcome.postId } } });
    expect(sim.playlistItems(mine)).toEqual([expect.objectContaining({ videoId: outcome.postId })]);
    expect(outcome.extra!.playlists).toEqual([
      { playlist_id: mine, success: true },
      { playlist_id: 'PLdoesnotexist', success: false, error: expect.stringMatching(/playlist.*cannot be found/) },
    ]);
    expect(outcome.warnings).toEqual([expect.stringContaining('PLdoesnotexist')]);
  });

  it('uploads the subtitle files, unindexed and indexed, each through its own caption session', async () => {
    const { ctx } = channel();
    const en = memFile('en.vtt', 'text/vtt', 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n');
    const de = memFile('de.srt', 'application/x-subrip', '1\n00:00:00,000 --> 00:00:01,000\nHallo\n');
    const { outcome } = await drivePublish(yt, ctx, videoPost(fx.video, {
      youtube_subtitle_file: en, youtube_subtitle_language: 'en',
      youtube_subtitle_file_2: de, youtube_subtitle_language_2: 'de', youtube_subtitle_name_2: 'Deutsch',
    }));
    expect(requestsTo('POST', '/upload/youtube/v3/captions').map((r) => [r.query, r.body])).toEqual([
      [{ uploadType: 'resumable', part: 'snippet' }, { snippet: { videoId: outcome.postId, language: 'en', name: 'en', isDraft: false } }],
      [{ uploadType: 'resumable', part: 'snippet' }, { snippet: { videoId: outcome.postId, language: 'de', name: 'Deutsch', isDraft: false } }],
    ]);
    expect(sim.captions(outcome.postId).map((c) => [c.language, c.name, c.text])).toEqual([
      ['en', 'en', 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n'], ['de', 'Deutsch', '1\n00:00:00,000 --> 00:00:01,000\nHallo\n'],
    ]);
    expect(outcome.extra!.captions).toEqual([
      { language: 'en', name: 'en', success: true, caption_id: expect.any(String) },
      { language: 'de', name: 'Deutsch', success: true, caption_id: expect.any(String) },
    ]);
  });

  it('schedules with publishAt as a private video', async () => {
    const { ctx } = channel();
    const at = new Date(Date.now() + 86400_000).toISOString();
    const { outcome } = await drivePublish(yt, ctx, videoPost(fx.video, { publishAt: at }));
    const body = uploads()[0]!.body as { status: Record<string, unknown>; contentDetails?: unknown };
    expect(body.status).toMatchObject({ privacyStatus: 'private', publishAt: at });
    expect(body.contentDetails).toBeUndefined();
    expect(outcome.warnings).toEqual([expect.stringMatching(/sent as private because publishAt/)]);
  });

  it('the simulator, like videos.insert, drops a regionRestriction sent in contentDetails (read-only)', async () => {
    const { account, ctx } = channel();
    const token = ctx.credentials.access_token!;
    const body = await collectAll(fx.access.read(fx.video.id));
    const init = await fetch(`${sim.apiBase}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status,contentDetails`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-upload-content-length': String(body.length), 'x-upload-content-type': 'video/mp4' },
      body: JSON.stringify({ snippet: { title: 'Region test' }, status: { privacyStatus: 'public' }, contentDetails: { regionRestriction: { allowed: ['US'] } } }),
    });
    expect(init.status).toBe(200);
    expect(uploads()[0]!.body).toMatchObject({ contentDetails: { regionRestriction: { allowed: ['US'] } } });
    const put = await fetch(init.headers.get('location')!, {
      method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'video/mp4', 'content-range': `bytes 0-${body.length - 1}/${body.length}` }, body,
    });
    expect(put.status).toBe(201);
    const created = await put.json() as { id: string; contentDetails?: Record<string, unknown> };
    // What YouTube derives from the file, and nothing of what was sent.
    expect(created.contentDetails).toEqual({ duration: 'PT0S', dimension: '2d', definition: 'hd', caption: 'false', licensedContent: false, projection: 'rectangular' });
    expect(created.contentDetails).not.toHaveProperty('regionRestriction');
    const [stored] = sim.videos(account.id);
    expect(stored!.resource).not.toHaveProperty('contentDetails');
    const listed = await (await fetch(`${sim.apiBase}/youtube/v3/videos?part=contentDetails&id=${created.id}`, { headers: { authorization: `Bearer ${token}` } })).json() as { items: Array<{ contentDetails: Record<string, unknown> }> };
    expect(listed.items[0]!.contentDetails).not.toHaveProperty('regionRestriction');
  });

  it('spreads a large upload over several steps, the session and offset carried in the JSON state', async () => {
    const { account, ctx } = channel();
    const stepwise = adapterFor(sim, { maxBytesPerStep: CHUNK });
    const post = videoPost(fx.landscapeVideo);
    let step = await stepwise.publisher!.publish(ctx, post);
    const phases: unknown[] = [];
    while (step.kind === 'wait') {
      const state = JSON.parse(JSON.stringify(step.state)) as Record<string, unknown>;
      phases.push(state.phase === 'upload' ? `upload@${String(state.offset)}` : state.phase);
      await new Promise((r) => setTimeout(r, Math.min(step.kind === 'wait' ? step.afterMs : 0, 50)));
      step = await stepwise.publisher!.resume!(ctx, post, state);
    }
    expect(phases.slice(0, 3)).toEqual([`upload@${CHUNK}`, `upload@${2 * CHUNK}`, 'extras']);
    expect(phases.slice(3).every((p) => p === 'processing')).toBe(true);
    expect(uploads().filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(sim.videos(account.id).map((v) => v.sha256)).toEqual([fx.landscapeVideo.id]);
  });

  it('resumes an interrupted chunk by asking the session how far it got', async () => {
    const { account, ctx } = channel();
    sim.fail('upload_interrupted');
    const total = fx.landscapeVideo.size;
    await drivePublish(yt, ctx, videoPost(fx.landscapeVideo));
    expect(contentRanges()).toEqual([
      `bytes 0-${CHUNK - 1}/${total}`, `bytes */${total}`, `bytes ${CHUNK}-${2 * CHUNK - 1}/${total}`, `bytes ${2 * CHUNK}-${total - 1}/${total}`,
    ]);
    expect(sim.videos(account.id).map((v) => v.sha256)).toEqual([fx.landscapeVideo.id]);
  });

  it('recovers the video when the answer to the last chunk is lost, without uploading twice', async () => {
    const { account, ctx } = channel();
    sim.fail('upload_interrupted');
    const { outcome } = await drivePublish(yt, ctx, videoPost(fx.video));
    expect(contentRanges()).toEqual([`bytes 0-${fx.video.size - 1}/${fx.video.size}`, `bytes */${fx.video.size}`]);
    expect(sim.videos(account.id).map((v) => v.id)).toEqual([outcome.postId]);
  });

  it('an expired upload session is transient: the next round starts over', async () => {
    const { ctx } = channel();
    sim.fail('session_expired');
    await expect(drivePublish(yt, ctx, videoPost(fx.video))).rejects.toMatchObject({ failure: { kind: 'transient' }, upstream: { status: 404 } });
    expect(sim.videos()).toHaveLength(0);
  });

  it('reports a video still processing at the deadline with a warning', async () => {
    const slow = await startYoutubeSimulator({ seed: 'slow', processingMs: 60_000 });
    try {
      const c = slow.createClient({ redirectUris: [REDIRECT] });
      const account = slow.createAccount({ title: 'Slow' });
      const tokens = slow.issueTokens(account.id, { clientId: c.clientId });
      const adapter = createYoutubePlatform({
        clientId: c.clientId, clientSecret: c.clientSecret, apiBase: slow.apiBase, authBase: slow.authBase, tokenUrl: slow.tokenUrl,
        pollIntervalMs: 10, maxProcessingMs: 50,
      });
      const { outcome } = await drivePublish(adapter, { credentials: { access_token: tokens.accessToken }, idempotencyKey: 'k', media }, videoPost(fx.video));
      expect(outcome.extra).toMatchObject({ processing_status: 'processing' });
      expect(outcome.warnings).toEqual([expect.stringMatching(/still processing/)]);
    } finally {
      await slow.close();
    }
  });
});

describe('pre-send validation sends nothing', () => {
  const base = () => videoPost(fx.video);
  it.each([
    ['an empty title', (p: PublishPost) => ({ ...p, title: '  ' }), 'title_required'],
    ['a 101-character title', (p: PublishPost) => ({ ...p, title: 'x'.repeat(101) }), 'title_too_long'],
    ['a title with <>', (p: PublishPost) => ({ ...p, title: 'a <tag>' }), 'invalid_title'],
    ['a description over 5000 bytes', (p: PublishPost) => ({ ...p, description: 'é'.repeat(2501) }), 'description_too_long'],
    ['two videos', (p: PublishPost) => ({ ...p, media: [fx.video, fx.landscapeVideo] }), 'media_invalid'],
    ['an image as the video', (p: PublishPost) => ({ ...p, media: [fx.png] }), 'media_invalid'],
    ['a 13-hour video', (p: PublishPost) => ({ ...p, media: [{ ...fx.video, info: { ...fx.video.info!, durationSeconds: 13 * 3600 } }] }), 'video_too_long'],
  ])('refuses %s as invalid_content', async (_label, change, code) => {
    const { ctx } = channel();
    const err = await yt.publisher!.publish(ctx, change(base())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ failure: { kind: 'invalid_content', code } });
    expect(sim.requests).toHaveLength(0);
  });

  it('refuses photo posts as unsupported', async () => {
    const { ctx } = channel();
    await expect(yt.publisher!.publish(ctx, { kind: 'photo', title: 'x', media: [fx.png], settings: {} }))
      .rejects.toMatchObject({ failure: { kind: 'unsupported' } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('first comment', () => {
  it('posts a top-level comment thread under the video', async () => {
    const { ctx } = channel();
    const { outcome } = await drivePublish(yt, ctx, videoPost(fx.video));
    const result = await postFirstComment(yt, ctx, { post: outcome, text: 'Links in the description 👇' });
    expect(requestsTo('POST', '/youtube/v3/commentThreads')[0]).toMatchObject({
      query: { part: 'snippet' },
      body: { snippet: { videoId: outcome.postId, topLevelComment: { snippet: { textOriginal: 'Links in the description 👇' } } } },
    });
    expect(sim.comments(outcome.postId)).toEqual([expect.objectContaining({ id: result.commentId, text: 'Links in the description 👇' })]);
  });

  it('skips with a warning when the video id is not known', async () => {
    const { ctx } = channel();
    const result = await postFirstComment(yt, ctx, { post: { postId: '', warnings: [] }, text: 'hello' });
    expect(result).toEqual({ commentId: '', warnings: [expect.stringMatching(/not known yet/)] });
    expect(sim.requests).toHaveLength(0);
  });

  it('a video made for kids has comments disabled', async () => {
    const { ctx } = channel();
    const { outcome } = await drivePublish(yt, ctx, videoPost(fx.video, { selfDeclaredMadeForKids: 'true' }));
    await expect(postFirstComment(yt, ctx, { post: outcome, text: 'hi' }))
      .rejects.toMatchObject({ failure: { kind: 'rejected', code: 'comments_disabled' }, upstream: { status: 403, code: 'commentsDisabled' } });
  });

  it('refuses a comment over 10000 characters without sending it', async () => {
    const { ctx } = channel();
    await expect(postFirstComment(yt, ctx, { post: { postId: 'abc', warnings: [] }, text: 'x'.repeat(10_001) }))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'text_too_long' } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('failure modes', () => {
  const fixedClock = () => adapterFor(sim, { now: () => FIXED_NOW });
  const publish = (ctx: PublishContext, adapter = yt) => drivePublish(adapter, ctx, videoPost(fx.video));

  it.each([
    ['token_expired'], ['token_revoked'],
  ] as const)('%s → auth_expired', async (mode) => {
    const { ctx } = channel();
    sim.fail(mode);
    await expect(publish(ctx)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_invalid' }, upstream: { status: 401, code: 'authError' } });
    expect(sim.videos()).toHaveLength(0);
  });

  it('a really expired or revoked access token → auth_expired', async () => {
    const a = channel();
    sim.expireAccessTokens(a.account.id);
    await expect(publish(a.ctx)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    const b = channel();
    sim.revokeTokens(b.account.id);
    await expect(publish(b.ctx)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
  });

  it('quota_exceeded → rate_limited until the next midnight Pacific time', async () => {
    const { ctx } = channel();
    sim.fail('quota_exceeded');
    await expect(publish(ctx, fixedClock()))
      .rejects.toMatchObject({ failure: { kind: 'rate_limited', retryAfterMs: 12 * 3600_000 }, upstream: { status: 403, code: 'quotaExceeded' } });
  });

  it('computes the Pacific midnight across standard time, summer time and the switch days', () => {
    expect(msUntilPacificMidnight(new Date('2025-01-15T20:00:00Z'))).toBe(12 * 3600_000); // 12:00 PST
    expect(msUntilPacificMidnight(new Date('2025-07-15T20:00:00Z'))).toBe(11 * 3600_000); // 13:00 PDT
    expect(msUntilPacificMidnight(new Date('2025-03-09T07:30:00Z'))).toBe(30 * 60_000); // 23:30 PST, Mar 8
    expect(msUntilPacificMidnight(new Date('2025-03-09T09:00:00Z'))).toBe(22 * 3600_000); // 01:00 PST, a 23-hour day
    expect(msUntilPacificMidnight(new Date('2025-11-02T08:00:00Z'))).toBe(24 * 3600_000); // 01:00 PDT, a 25-hour day
  });

  it('rate_limited → rate_limited after Retry-After', async () => {
    const { ctx } = channel();
    sim.fail('rate_limited');
    await expect(publish(ctx)).rejects.toMatchObject({ failure: { kind: 'rate_limited', retryAfterMs: 30_000 }, upstream: { status: 429 } });
  });

  it('upload_limit_exceeded → restricted daily_upload_limit for 2 hours, then retried', async () => {
    const { ctx } = channel();
    sim.fail('upload_limit_exceeded');
    await expect(publish(ctx, fixedClock())).rejects.toMatchObject({
      failure: { kind: 'restricted', reason: 'daily_upload_limit', until: new Date(FIXED_NOW.getTime() + 2 * 3600_000), retryAfterPause: true },
      upstream: { status: 400, code: 'uploadLimitExceeded' },
    });
  });

  it('a channel over its daily upload limit is restricted the same way', async () => {
    const { ctx } = channel({ dailyUploadLimit: 1 });
    await publish(ctx);
    await expect(publish(ctx)).rejects.toMatchObject({ failure: { kind: 'restricted', reason: 'daily_upload_limit' } });
  });

  it.each([['forbidden'], ['insufficient_permissions']] as const)('%s → restricted permission_denied for 24 hours', async (mode) => {
    const { ctx } = channel();
    sim.fail(mode);
    await expect(publish(ctx, fixedClock())).rejects.toMatchObject({
      failure: { kind: 'restricted', reason: 'permission_denied', until: new Date(FIXED_NOW.getTime() + 24 * 3600_000) }, upstream: { status: 403 },
    });
  });

  it.each([['server_error', 500], ['service_unavailable', 503]] as const)('%s → transient, nothing stored', async (mode, status) => {
    const { ctx } = channel();
    sim.fail(mode);
    await expect(publish(ctx)).rejects.toMatchObject({ failure: { kind: 'transient' }, upstream: { status, code: 'backendError' } });
    expect(sim.videos()).toHaveLength(0);
  });

  it.each([
    ['invalid_title', 'invalid_title'], ['invalid_description', 'invalid_description'], ['invalid_tags', 'invalid_tags'],
  ] as const)('%s → invalid_content', async (mode, code) => {
    const { ctx } = channel();
    sim.fail(mode);
    await expect(publish(ctx)).rejects.toMatchObject({ failure: { kind: 'invalid_content', code }, upstream: { status: 400 } });
  });

  it('processing_failed → invalid_content, processing_rejected → rejected', async () => {
    const { ctx } = channel();
    sim.fail('processing_failed');
    await expect(publish(ctx)).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'video_processing_failed' }, upstream: { code: 'codec' } });
    sim.fail('processing_rejected');
    await expect(publish(ctx)).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'video_rejected' }, upstream: { code: 'duplicate' } });
  });

  it('a file that is not a video fails processing upstream', async () => {
    const { ctx } = channel();
    const fake: MediaRef = { ...fx.images[1]!, kind: 'video', contentType: 'video/mp4' };
    await expect(drivePublish(yt, ctx, videoPost(fake)))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'video_processing_failed' }, upstream: { code: 'invalidFile' } });
  });

  it('a timeout is transient with an unknown outcome', async () => {
    const { ctx } = channel();
    sim.setLatency(300);
    const err = await drivePublish(adapterFor(sim, { timeoutMs: 80 }), ctx, videoPost(fx.video)).catch((e: unknown) => e as Error);
    expect(err).toMatchObject({ failure: { kind: 'transient' } });
    expect((err as Error).message).toMatch(/80 ms.*outcome is unknown/);
    expect((err as Error).message).not.toContain(ctx.credentials.access_token);
  });

  it('token endpoint failures: invalid_grant → auth_expired, 5xx → transient', async () => {
    const { ctx } = channel();
    sim.fail('token_revoked');
    await expect(yt.refresher!.refresh(ctx.credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'invalid_grant' } });
    sim.fail('server_error');
    await expect(yt.refresher!.refresh(ctx.credentials)).rejects.toMatchObject({ failure: { kind: 'transient' } });
    await yt.refresher!.refresh(ctx.credentials);
  });

  it('failures can be queued over the HTTP control surface', async () => {
    const { ctx } = channel();
    const res = await fetch(`${sim.origin}/__sim/failures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'quota_exceeded' }) });
    expect(res.status).toBe(200);
    await expect(publish(ctx)).rejects.toMatchObject({ failure: { kind: 'rate_limited' } });
  });
});

describe('simulator wire format', () => {
  async function session(token: string, size: number) {
    const res = await fetch(`${sim.apiBase}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-upload-content-length': String(size), 'x-upload-content-type': 'video/mp4' },
      body: JSON.stringify({ snippet: { title: 'raw' }, status: { privacyStatus: 'private' } }),
    });
    expect(res.status).toBe(200);
    return res.headers.get('location')!;
  }

  it('answers a status query with 308 and Range, and refuses a chunk that is not a 256 KiB multiple', async () => {
    const { tokens } = channel();
    const uri = await session(tokens.accessToken, 3 * CHUNK);
    const auth = { authorization: `Bearer ${tokens.accessToken}` };
    const first = await fetch(uri, { method: 'PUT', headers: { ...auth, 'content-type': 'video/mp4', 'content-range': `bytes 0-${CHUNK - 1}/${3 * CHUNK}` }, body: Buffer.alloc(CHUNK), redirect: 'manual' });
    expect(first.status).toBe(308);
    expect(first.headers.get('range')).toBe(`bytes=0-${CHUNK - 1}`);
    const odd = await fetch(uri, { method: 'PUT', headers: { ...auth, 'content-type': 'video/mp4', 'content-range': `bytes ${CHUNK}-${CHUNK + 999}/${3 * CHUNK}` }, body: Buffer.alloc(1000), redirect: 'manual' });
    expect(odd.status).toBe(400);
    expect(await odd.json()).toMatchObject({ error: { code: 400, errors: [{ reason: 'badContent' }] } });
    const query = await fetch(uri, { method: 'PUT', headers: { ...auth, 'content-range': `bytes */${3 * CHUNK}` }, redirect: 'manual' });
    expect([query.status, query.headers.get('range')]).toEqual([308, `bytes=0-${CHUNK - 1}`]);
  });

  it('checks the video resource like videos.insert and answers in Google\'s error shape', async () => {
    const { tokens } = channel();
    const res = await fetch(`${sim.apiBase}/upload/youtube/v3/videos?uploadType=resumable&part=snippet`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-type': 'application/json', 'x-upload-content-length': '10', 'x-upload-content-type': 'video/mp4' },
      body: JSON.stringify({ snippet: { title: 'ok' }, status: { privacyStatus: 'public' } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 400, message: expect.any(String), errors: [{ message: expect.any(String), domain: 'youtube.video', reason: 'unexpectedPart' }], status: 'INVALID_ARGUMENT' } });
  });

  it('refuses calls whose token lacks the scope', async () => {
    const { ctx } = channel({ scopes: [YOUTUBE_SCOPES[0]] });
    const err = await postFirstComment(yt, ctx, { post: { postId: 'abc', warnings: [] }, text: 'hi' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ upstream: { status: 403, code: 'insufficientPermissions' } });
  });
});
