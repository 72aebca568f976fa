import { MongoClient } from 'mongodb';
import { COLLECTIONS, createMongoStorage } from '../../adapters/mongo/storage';
import type { Storage } from '../../core/ports/storage';
import { anUpload } from '../support/mothers';
import { media, useHerald, type UploadFile } from '../support/e2e';

jest.setTimeout(180_000);

const DISCOVER = process.env.HERALD_DISCOVER === '1';

/**
 * The 4xx/429/503 answers of the publishing engine over HTTP on the real stack, each with its
 * exact body: what a client sees, branches on (error_code) and shows (message).
 */
describe('error bodies of the upload endpoints', () => {
  const herald = useHerald({ sandbox: true, account: { email: 'errors@herald.dev' }, profiles: ['erin'] });
  const { api, stack } = herald;
  let mongo: MongoClient;
  let storage: Storage;
  // Named as a client names them: messages quote the file names.
  const big = { file: media.image({ pattern: 'noise', size: '1400x1400', format: 'png' }), name: 'big.png', type: 'image/png' };
  const clip = { file: media.clip({ seconds: 4, audio: false }), name: 'clip.mp4', type: 'video/mp4' };
  const notes = { bytes: Buffer.from('just words\n'), name: 'notes.txt', type: 'text/plain' };

  async function form(endpoint: string, fields: Record<string, string | string[]>, files: Array<[string, UploadFile]> = []) {
    const res = await herald.postForm(endpoint, fields, Object.fromEntries(files));
    return { status: res.status, headers: res.headers, body: res.body as Record<string, unknown> };
  }
  const connectionId = async (platform: string) =>
    (await mongo.db().collection<{ _id: string }>(COLLECTIONS.connectedAccounts).findOne({ profileUsername: 'erin', platform }))!._id;
  const show = (what: string, res: { status: number; body: unknown }) => {
    if (DISCOVER) process.stdout.write(`\n### ${what}\n${res.status} ${JSON.stringify(res.body, null, 1)}\n`);
  };

  beforeAll(async () => {
    for (const platform of ['discord', 'bluesky', 'tiktok']) await herald.connect(platform, { profile: 'erin' });
    mongo = await MongoClient.connect(stack.env.MONGODB_URI!, { serverSelectionTimeoutMS: 5000 });
    storage = await createMongoStorage(mongo.db());
  });

  afterAll(async () => {
    await mongo?.close();
  });

  it('400: settings, media limits, endpoint rules and field rules, each naming what to fix', async () => {
    const cases: Array<[string, () => Promise<{ status: number; body: unknown }>, Record<string, unknown>]> = [
      ['settings', () => api.post('/api/upload_text', { user: 'erin', 'platform[]': ['bluesky'], title: 'hi', bluesky_langs: ['en', 'de', 'fr', 'es'], bluesky_postgate: 'maybe' }), {
        success: false, error_code: 'invalid_request',
        message: 'bluesky: bluesky_langs takes at most 3 items. bluesky: bluesky_postgate must be one of disable_quotes, true, false.',
        violations: [
          { platform: 'bluesky', field: 'bluesky_langs', type: 'invalid_field', message: 'bluesky: bluesky_langs takes at most 3 items' },
          { platform: 'bluesky', field: 'bluesky_postgate', type: 'invalid_field', message: 'bluesky: bluesky_postgate must be one of disable_quotes, true, false' },
        ],
      }],
      ['photo limit', () => form('/api/upload_photos', { user: 'erin', 'platform[]': 'bluesky', title: 'big' }, [['photos[]', big]]), {
        success: false, error_code: 'invalid_request', message: expect.stringMatching(/^bluesky: photo 1 is \d+(\.\d)? MB; the limit is 1 MB\.$/),
        violations: [{ platform: 'bluesky', type: 'photo_too_large', message: expect.stringMatching(/^bluesky: photo 1 is/), limit: 1_000_000, actual: media.bytes(big.file).length }],
      }],
      ['video on photo endpoint', () => form('/api/upload_photos', { user: 'erin', 'platform[]': 'bluesky', title: 'v' }, [['photos[]', clip]]), {
        success: false, error_code: 'invalid_request',
        message: 'bluesky does not take videos on the photo endpoint (only mixed carousels of networks that have them do).',
        violations: [{ platform: 'bluesky', type: 'video_not_allowed', message: 'bluesky does not take videos on the photo endpoint (only mixed carousels of networks that have them do).' }],
      }],
      ['wrong file type', () => form('/api/upload_photos', { user: 'erin', 'platform[]': 'bluesky', title: 'txt' }, [['photos[]', notes]]), {
        success: false, error_code: 'media_type_unsupported', message: 'photos[]: notes.txt is text/plain, which this field does not take.',
      }],
      ['endpoint platform', () => form('/api/upload', { user: 'erin', 'platform[]': ['devto', 'bluesky'], title: 'v' }, [['video', clip]]), {
        success: false, error_code: 'platform_not_supported',
        message: 'The video endpoint cannot publish to devto. Supported: tiktok, instagram, linkedin, youtube, facebook, x, threads, pinterest, bluesky, discord, telegram, google_business, mastodon, wordpress, slack, snapchat.',
        unsupported_platforms: ['devto'], supported_platforms: ['tiktok', 'instagram', 'linkedin', 'youtube', 'facebook', 'x', 'threads', 'pinterest', 'bluesky', 'discord', 'telegram', 'google_business', 'mastodon', 'wordpress', 'slack', 'snapchat'],
      }],
      ['not connected', () => api.post('/api/upload_text', { user: 'erin', 'platform[]': ['telegram', 'discord'], title: 'hi' }), {
        success: false, error_code: 'invalid_request', message: 'No telegram account is connected to profile "erin".',
        violations: [{ platform: 'telegram', type: 'not_connected', message: 'No telegram account is connected to profile "erin".' }],
      }],
      ['no video', () => form('/api/upload', { user: 'erin', 'platform[]': 'bluesky', title: 'v' }), {
        success: false, error_code: 'invalid_request', message: 'video is required: exactly one video file or URL.',
        violations: [{ field: 'video', message: 'exactly one video is required' }],
      }],
      ['max_posts_per_slot alone', () => api.post('/api/upload_text', { user: 'erin', 'platform[]': ['discord'], title: 'hi', max_posts_per_slot: 2 }), {
        success: false, error_code: 'invalid_request', message: 'max_posts_per_slot goes only with add_to_queue=true.',
        violations: [{ field: 'max_posts_per_slot', message: 'only with add_to_queue' }],
      }],
      ['request_id too long', () => api.post('/api/upload_text', { user: 'erin', 'platform[]': ['discord'], title: 'hi', request_id: 'r'.repeat(256) }), {
        success: false, error_code: 'invalid_id', message: 'request_id: ids are at most 255 characters; this one has 256.',
        violations: [{ field: 'request_id', message: 'ids are at most 255 characters; this one has 256' }],
      }],
      ['unknown platform', () => api.post('/api/upload_text', { user: 'erin', 'platform[]': ['myspace'], title: 'hi' }), {
        success: false, error_code: 'platform_not_supported', message: 'Unknown platform "myspace" in platform[].',
        violations: [{ field: 'platform[]', message: 'unknown platform "myspace"' }],
      }],
      ['bad timezone', () => api.post('/api/upload_text', { user: 'erin', 'platform[]': ['discord'], title: 'hi', scheduled_date: '2027-01-01T10:00:00', timezone: 'Mars/Olympus' }), {
        success: false, error_code: 'invalid_request', message: 'timezone "Mars/Olympus" is not an IANA time zone (e.g. Europe/Paris).',
        violations: [{ field: 'timezone', message: 'unknown time zone' }],
      }],
    ];
    for (const [what, call, body] of cases) {
      const res = await call();
      show(what, res);
      expect([what, res.status, res.body]).toEqual([what, 400, body]);
    }
  });

  it('403 free-plan TikTok and 429 monthly quota with the usage', async () => {
    const freeKey = await stack.newApiKey('free@herald.dev', 'free');
    const free = herald.client(freeKey);
    expect((await free.post('/api/herald/users', { username: 'fred' })).status).toBe(201);
    await herald.connect('discord', { profile: 'fred', as: free });
    const tiktok = await free.post('/api/upload_text', { user: 'fred', 'platform[]': ['tiktok'], title: 'hi' });
    show('free tiktok', tiktok);
    expect([tiktok.status, tiktok.body]).toEqual([403, {
      success: false, error_code: 'tiktok_not_in_plan', message: 'The free plan does not include TikTok posting: upgrade the plan or remove tiktok from platform[].',
    }]);
    for (let i = 0; i < 10; i += 1) expect((await free.post('/api/upload_text', { user: 'fred', 'platform[]': ['discord'], title: `free ${i}`, async_upload: true })).status).toBe(202);
    const over = await free.post('/api/upload_text', { user: 'fred', 'platform[]': ['discord'], title: 'one too many' });
    show('monthly quota', over);
    expect([over.status, over.body]).toEqual([429, {
      success: false, error_code: 'monthly_quota_exceeded', message: 'Monthly upload quota reached: 10 of 10 uploads used on the free plan this month.',
      usage: { used: 10, limit: 10, plan: 'free' },
    }]);
  });

  it('429 daily cap (rolling 24 h) and TikTok per-minute burst, with the violations', async () => {
    // Posts already made on these accounts, stored as the API stores them.
    const earlier = async (platform: 'bluesky' | 'tiktok', count: number, agoMs: number) => {
      const id = await connectionId(platform);
      const account = (await storage.connectedAccounts.findById(id))!.accountId;
      for (let i = 0; i < count; i += 1) {
        await storage.uploads.insert(anUpload({
          accountId: account, profileUsername: 'erin', status: 'completed', mediaType: platform === 'tiktok' ? 'video' : 'text',
          targets: [{ platform, connectedAccountId: id, title: `earlier ${i}`, settings: {} }], createdAt: new Date(Date.now() - agoMs), updatedAt: new Date(),
        }));
      }
    };
    await earlier('bluesky', 50, 3600_000);
    const capped = await api.post('/api/upload_text', { user: 'erin', 'platform[]': ['bluesky', 'discord'], title: 'over the cap' });
    show('daily cap', capped);
    expect([capped.status, capped.body]).toEqual([429, {
      success: false, error_code: 'daily_cap_reached', message: 'bluesky: 50 posts in the last 24 hours; the cap is 50.',
      violations: [{ platform: 'bluesky', type: 'hard_cap', used_last_24h: 50, cap: 50 }],
    }]);

    await earlier('tiktok', 6, 10_000);
    const burst = await form('/api/upload', { user: 'erin', 'platform[]': 'tiktok', title: 'seventh this minute', privacy_level: 'SELF_ONLY' }, [['video', clip]]);
    show('tiktok burst', burst);
    expect([burst.status, burst.body]).toEqual([429, {
      success: false, error_code: 'rate_cap_reached', message: 'tiktok: 6 posts in the last minute; at most 6.',
      violations: [{ platform: 'tiktok', type: 'rate_cap', used_last_minute: 6, cap: 6 }],
    }]);
  });

  it('404 unknown job or request, 409 a job that can no longer change, 503 reddit', async () => {
    const auth = { Authorization: `Apikey ${herald.key}` };
    const missingJob = await fetch(`${stack.apiUrl}/api/herald/schedule/job_nope`, { method: 'DELETE', headers: auth });
    const missingJobBody = await missingJob.json();
    show('404 job', { status: missingJob.status, body: missingJobBody });
    expect([missingJob.status, missingJobBody]).toEqual([404, { success: false, error_code: 'JOB_NOT_FOUND', message: 'No scheduled post with job_id "job_nope".' }]);
    const missingRequest = await api.get('/api/herald/status?request_id=req_nope');
    show('404 status', missingRequest);
    expect([missingRequest.status, missingRequest.body]).toEqual([404, { success: false, error_code: 'UPLOAD_NOT_FOUND', message: 'No upload with request_id "req_nope".' }]);

    const scheduled = await api.post('/api/upload_text', { user: 'erin', 'platform[]': ['discord'], title: 'to cancel', scheduled_date: new Date(Date.now() + 3600_000).toISOString() });
    expect(scheduled.status).toBe(202);
    const jobId = scheduled.body.job_id as string;
    expect((await fetch(`${stack.apiUrl}/api/herald/schedule/${jobId}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    const again = await fetch(`${stack.apiUrl}/api/herald/schedule/${jobId}`, { method: 'DELETE', headers: auth });
    const againBody = await again.json();
    show('409 cancel', { status: again.status, body: againBody });
    expect([again.status, againBody]).toEqual([409, { success: false, error_code: 'job_not_cancellable', message: `The post of job ${jobId} is cancelled and can no longer be cancelled.` }]);
    const edit = await fetch(`${stack.apiUrl}/api/herald/schedule/${jobId}`, { method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'new' }) });
    const editBody = await edit.json();
    show('409 edit', { status: edit.status, body: editBody });
    expect([edit.status, editBody]).toEqual([409, { success: false, error_code: 'job_not_editable', message: `The post of job ${jobId} is cancelled and can no longer be edited.` }]);

    const reddit = await api.post('/api/upload_text', { user: 'erin', 'platform[]': ['discord', 'reddit'], title: 'hi' });
    show('503 reddit', reddit);
    expect([reddit.status, reddit.body]).toEqual([503, {
      success: false, error_code: 'reddit_unavailable', message: 'Publishing, connecting and commenting on reddit is unavailable. Remove reddit from platform[].',
    }]);
  });
});
