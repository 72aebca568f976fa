import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../support/stack';
import { media, useHerald } from '../support/e2e';

jest.setTimeout(300_000);

const NS = 'uploadposts';
const DRIVER = path.join(__dirname, 'upload-post-driver.mjs');
const CLIENT_VERSION = (JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['upload-post'];

type Answer = { method: string; status: number | null } & ({ ok: true; value: any } | { ok: false; error: string });

/**
 * The compatibility tier (issue 29): the commercial API's official npm client (`upload-post`, the
 * exact version in package.json) driven method by method against Herald with the sandbox's
 * simulators, its namespace set to the client's (`uploadposts`). Each method runs in a real Node
 * process importing the published package (test/compat/upload-post-driver.mjs), so what passes
 * here is what an integrator's program gets. The methods of endpoints that the specification
 * does not have are listed with the answer they get (docs/compatibility.md).
 */
describe(`the official npm client upload-post ${CLIENT_VERSION}, method by method`, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-compat-'));
  const events: Array<{ event: string; body: any }> = [];
  let receiver: Server;
  let receiverUrl = '';
  const herald = useHerald({
    sandbox: true, namespace: NS, account: { email: 'compat@herald.dev' }, profiles: ['mia'],
    env: { HERALD_HEARTBEAT_TIMEOUT_MS: '5000', HERALD_WEBHOOK_ALLOW_LOOPBACK: 'true', HERALD_STATUS_CACHE_MS: '0' },
  });
  const { sandbox } = herald;
  const video = media.clip({ seconds: 3 });
  const photos = media.images(2);
  const pdf = path.join(dir, 'report.pdf');
  writeFileSync(pdf, '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

  /** Runs the client's methods in one process, in order. */
  function client(...calls: Array<[string, ...unknown[]]>): Promise<Answer[]> {
    const input = JSON.stringify({ baseUrl: `${herald.apiUrl}/api`, apiKey: herald.key, calls: calls.map(([method, ...args]) => ({ method, args })) });
    return new Promise((resolve, reject) => {
      const child = execFile(process.execPath, [DRIVER], { timeout: 240_000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`driver failed: ${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Answer[]);
      });
      child.stdin!.end(input);
    });
  }
  /** One method; its value, or a failure naming the client's error. */
  async function value(method: string, ...args: unknown[]): Promise<any> {
    const [answer] = await client([method, ...args]);
    if (!answer!.ok) throw new Error(`${method} failed: ${answer!.error}`);
    return answer!.value;
  }
  async function refusal(method: string, ...args: unknown[]): Promise<string> {
    const [answer] = await client([method, ...args]);
    if (answer!.ok) throw new Error(`${method} succeeded: ${JSON.stringify(answer!.value).slice(0, 300)}`);
    return `${answer!.status} ${answer!.error}`;
  }
  const done = (requestId: string) => eventually(() => value('getStatus', requestId), (s) => s.status === 'completed', 180_000, 1000);
  const future = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();
  const posted: Record<string, { requestId: string; postId: string }> = {};

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          events.push({ event: body.event, body });
        } catch { /* not JSON: not counted */ }
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    // The TikTok account is granted the analytics capabilities the audience and suggestions need.
    sandbox.simulators.tiktok.setCapabilities(sandbox.accounts.tiktok.openId, ['photo_privacy', 'comments', 'profile_analytics', 'trend_search']);
    for (const network of ['bluesky', 'linkedin', 'facebook', 'instagram', 'pinterest', 'tiktok', 'google_business']) await herald.connect(network, { profile: 'mia' });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('profiles and connect links: listUsers, createUser, deleteUser, generateJwt, validateJwt, preferences', async () => {
    expect(await value('createUser', 'compat-two')).toMatchObject({ success: true, profile: { username: 'compat-two' } });
    const listed = await value('listUsers');
    expect(listed).toMatchObject({ success: true, limit: expect.any(Number), plan: expect.any(String) });
    expect(listed.profiles.map((p: { username: string }) => p.username)).toEqual(expect.arrayContaining(['mia', 'compat-two']));
    expect(await value('deleteUser', 'compat-two')).toMatchObject({ success: true });
    const link = await value('generateJwt', 'mia', { redirectUrl: 'https://integrator.example/back', platforms: ['bluesky', 'x'], connectTitle: 'Connect', showCalendar: false });
    expect(link).toMatchObject({ success: true, access_url: expect.stringContaining('token='), duration: '48h' });
    const token = new URL(link.access_url).searchParams.get('token');
    expect(await value('validateJwt', token)).toMatchObject({ success: true, profile: { username: 'mia', social_accounts: expect.objectContaining({ bluesky: expect.any(Object) }) } });
    expect(await value('updateUserPreferences', { weekStartDay: 'sunday' })).toMatchObject({ success: true, week_start_day: 'sunday' });
    expect(await value('getUserPreferences')).toMatchObject({ success: true, week_start_day: 'sunday' });
  });

  it('notifications: updateNotificationConfig to a loopback receiver, getNotificationConfig, testNotifications', async () => {
    expect(await value('updateNotificationConfig', { webhookUrl: receiverUrl, webhookEvents: ['upload_completed'] }))
      .toMatchObject({ success: true, notifications: { webhook_url: receiverUrl, webhook_events: { upload_completed: true, social_account_connected: false } } });
    expect(await value('getNotificationConfig')).toMatchObject({ success: true, notifications: { webhook_url: receiverUrl, webhook_secret: expect.any(String) } });
    expect(await value('testNotifications')).toMatchObject({ success: true });
    await eventually(async () => events.length, () => events.some((e) => e.event === 'test'), 60_000, 250);
  });

  it('publishing: uploadText, upload (async), uploadPhotos, uploadDocument, getStatus until done', async () => {
    const text = await value('uploadText', { user: 'mia', platforms: ['bluesky'], title: 'Hello from the npm client', idempotencyKey: 'compat-text-1' });
    expect(text).toMatchObject({ success: true, results: { bluesky: { success: true, post_id: expect.any(String) } } });
    posted.text = { requestId: text.request_id, postId: text.results.bluesky.post_id };
    // The same idempotency key returns the first request, not a second post.
    expect((await value('uploadText', { user: 'mia', platforms: ['bluesky'], title: 'Hello from the npm client', idempotencyKey: 'compat-text-1' })).request_id).toBe(text.request_id);

    const clip = await value('upload', video, { user: 'mia', platforms: ['bluesky', 'facebook'], title: 'A clip from the npm client', asyncUpload: true });
    expect(clip).toMatchObject({ success: true, request_id: expect.any(String) });
    const pending = await value('getStatus', clip.request_id);
    expect(pending.success).toBe(pending.status === 'completed' && pending.all_succeeded === true);
    const clipDone = await done(clip.request_id);
    expect(clipDone).toMatchObject({ success: true, status: 'completed', results: { bluesky: { success: true }, facebook: { success: true } } });
    posted.video = { requestId: clip.request_id, postId: clipDone.results.facebook.post_id };

    const album = await value('uploadPhotos', photos, { user: 'mia', platforms: ['instagram', 'pinterest'], title: 'Photos from the npm client', pinterestBoardId: sandbox.env.SANDBOX_PINTEREST_BOARD_ID, asyncUpload: true });
    const albumDone = await done(album.request_id);
    expect(albumDone).toMatchObject({ success: true, results: { instagram: { success: true }, pinterest: { success: true } } });
    posted.instagram = { requestId: album.request_id, postId: albumDone.results.instagram.post_id };

    const doc = await value('uploadDocument', pdf, { user: 'mia', title: 'Report from the npm client', description: 'Numbers.', targetLinkedinPageId: sandbox.accounts.linkedin.pageId, asyncUpload: true });
    expect(await done(doc.request_id)).toMatchObject({ success: true, media_type: 'document', results: { linkedin: { success: true } } });
    await eventually(async () => events.length, () => events.some((e) => e.event === 'upload_completed'), 60_000, 250);
  });

  it('history and scheduled posts: getHistory, getJobStatus, listScheduled, editScheduled, cancelScheduled', async () => {
    const history = await value('getHistory', { page: 1, limit: 20 });
    expect(history).toMatchObject({ success: true, page: 1, limit: 20 });
    expect(history.history.map((h: { request_id: string }) => h.request_id)).toEqual(expect.arrayContaining([posted.text!.requestId, posted.video!.requestId]));

    const later = await value('uploadText', { user: 'mia', platforms: ['bluesky'], title: 'Later', scheduledDate: future(24), timezone: 'UTC' });
    expect(later).toMatchObject({ success: true, job_id: expect.any(String) });
    expect(await value('getJobStatus', later.job_id)).toMatchObject({ success: false, status: 'scheduled' });
    expect((await value('listScheduled')).scheduled ?? (await value('listScheduled'))).toBeDefined();
    const listed = await value('listScheduled');
    expect(JSON.stringify(listed)).toContain(later.job_id);
    const moved = future(48);
    expect(await value('editScheduled', later.job_id, { scheduledDate: moved, timezone: 'UTC' })).toMatchObject({ success: true, job_id: later.job_id, scheduled_date: moved });
    expect(await value('cancelScheduled', later.job_id)).toMatchObject({ success: true });
    expect(await value('getJobStatus', later.job_id)).toMatchObject({ success: false, status: 'cancelled' });
  });

  it('post management: retryPost, unpublishPost', async () => {
    // Nothing failed: the retry has nothing to send again, and says so.
    expect(await refusal('retryPost', { requestId: posted.text!.requestId })).toMatch(/^4\d\d Upload-Post API error: /);
    expect(await value('unpublishPost', { platform: 'bluesky', user: 'mia', postId: posted.text!.postId })).toMatchObject({ success: true });
  });

  it('comments: getPostComments, createComment, commentAction, deleteComment, replyToComment, publicReplyToComment', async () => {
    const fb = posted.video!.postId;
    const fan = sandbox.simulators.facebook.seedComment({ postId: fb, text: 'Nice clip!', authorName: 'A Fan' }).id;
    const comments = await value('getPostComments', { platform: 'facebook', user: 'mia', postId: fb });
    expect(comments).toMatchObject({ success: true, pagination: expect.any(Object) });
    expect(comments.comments.map((c: { id: string }) => c.id)).toContain(fan);
    const created = await value('createComment', { platform: 'facebook', user: 'mia', postId: fb, message: 'Thanks for watching' });
    expect(created).toMatchObject({ success: true, id: expect.any(String) });
    expect(await value('commentAction', { platform: 'facebook', user: 'mia', commentId: fan, action: 'like' })).toMatchObject({ success: true, action: 'like', comment_id: fan });
    expect(await value('commentAction', { platform: 'facebook', user: 'mia', commentId: fan, action: 'hide', postId: fb })).toMatchObject({ success: true, action: 'hide' });
    expect(await value('deleteComment', { platform: 'facebook', user: 'mia', commentId: created.id })).toMatchObject({ success: true });

    const igFan = sandbox.simulators.instagram.seedComment({ postId: posted.instagram!.postId, text: 'How much?', authorName: 'a_fan' }).id;
    expect(await value('replyToComment', { user: 'mia', commentId: igFan, message: 'Sent you a DM' })).toMatchObject({ success: true, comment_id: igFan });
    expect(await value('publicReplyToComment', { user: 'mia', commentId: igFan, message: 'Thanks!' })).toMatchObject({ success: true, id: expect.any(String) });
  });

  it('analytics: getAnalytics, getTotalImpressions, getPostAnalytics, getPostAnalyticsByPlatformId, getCachedPostAnalytics, getMedia', async () => {
    expect(await value('getAnalytics', 'mia', { platforms: ['bluesky', 'instagram'] })).toMatchObject({ bluesky: expect.any(Object), instagram: expect.any(Object) });
    expect(await value('getTotalImpressions', 'mia', { period: 'last_week', breakdown: true })).toMatchObject({ success: true, profile_username: 'mia' });
    const post = await value('getPostAnalytics', posted.video!.requestId);
    expect(post).toMatchObject({ success: true, post: { request_id: posted.video!.requestId }, platforms: { facebook: { success: true } } });
    expect(post.platforms.facebook.post_metrics).not.toBeNull();
    expect(await value('getPostAnalyticsByPlatformId', posted.instagram!.postId, 'instagram', 'mia')).toMatchObject({ success: true });
    expect(await value('getCachedPostAnalytics', 'mia', { limit: 10 })).toMatchObject({ success: true });
    const library = await value('getMedia', 'instagram', 'mia', { limit: 10 });
    expect(library).toMatchObject({ success: true, media: expect.arrayContaining([expect.objectContaining({ id: posted.instagram!.postId })]) });
  });

  it('lookups: pages, boards, TikTok music, locations and settings, Google Business locations (id and name where the client reads them)', async () => {
    const fbPages = await value('getFacebookPages', 'mia');
    expect(fbPages.pages).toEqual(expect.arrayContaining([expect.objectContaining({ id: sandbox.accounts.facebook.pageId, name: expect.any(String), page_id: sandbox.accounts.facebook.pageId })]));
    const liPages = await value('getLinkedinPages', 'mia');
    expect(liPages.pages).toEqual([expect.objectContaining({ id: sandbox.accounts.linkedin.pageId, name: 'Herald Sandbox Page' })]);
    const boards = await value('getPinterestBoards', 'mia');
    expect(boards.boards).toEqual(expect.arrayContaining([expect.objectContaining({ id: sandbox.env.SANDBOX_PINTEREST_BOARD_ID, name: expect.any(String) })]));
    expect((await value('getTiktokTrendingMusic', 'mia')).music.length).toBeGreaterThan(0);
    expect((await value('searchTiktokMusic', 'mia', { q: 'lo-fi' })).music.map((m: { title: string }) => m.title).sort()).toEqual(['Bakery Morning', 'Morning Coffee']);
    expect(await value('getTiktokLocations', 'mia', 'cafe')).toMatchObject({ success: true });
    expect(await value('getTiktokPublishingSettings', 'mia')).toMatchObject({ success: true });
    expect(await value('getGoogleBusinessLocations', 'mia')).toMatchObject({ success: true, locations: [expect.objectContaining({ location_id: sandbox.accounts.google_business.locationId })] });
  });

  it('getPlatformMetrics, getAudience, getSuggestions (TikTok); the methods Herald has no endpoint for', async () => {
    expect(await value('getPlatformMetrics')).toMatchObject({ success: true });
    expect(await value('getAudience', { user: 'mia', platform: 'tiktok' })).toMatchObject({ success: true, profile_username: 'mia', platform: 'tiktok', audience: expect.any(Object) });
    expect(await value('getSuggestions', { user: 'mia', platform: 'tiktok', type: 'hashtags', q: 'coffee' })).toMatchObject({ success: true, type: 'hashtags', hashtags: expect.any(Array) });
    // Audience insights are TikTok's: another network is refused with a message the client shows.
    expect(await refusal('getAudience', { user: 'mia', platform: 'instagram' })).toMatch(/^400 Upload-Post API error: /);
    const answers = await client(['getRedditDetailedPosts', 'mia'], ['selectGoogleBusinessLocation']);
    expect(answers.map((a) => [a.method, a.status, a.ok ? 'ok' : a.error])).toEqual([
      ['getRedditDetailedPosts', 404, expect.stringMatching(/^Upload-Post API error: /)],
      // The client refuses this one itself, before any request.
      ['selectGoogleBusinessLocation', null, expect.stringMatching(/not supported/)],
    ]);
  });
});
