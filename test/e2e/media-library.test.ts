import { media, useHerald } from '../support/e2e';

jest.setTimeout(300_000);

const OAUTH = ['tiktok', 'instagram', 'threads', 'facebook', 'youtube', 'linkedin', 'x', 'pinterest'] as const;
const NINE = [...OAUTH, 'bluesky'] as const;
const CURSOR_NETWORKS = ['instagram', 'facebook', 'threads', 'bluesky', 'x', 'pinterest', 'tiktok', 'youtube'] as const;

/**
 * Issue 11's media library and lookups end to end: the nine networks connected through their
 * real connect flows, posts published through the API and the worker, each found again in that
 * network's GET /media, paged with cursors, and every error body; then every lookup.
 */
describe('media library and lookups on the nine networks', () => {
  const herald = useHerald({ sandbox: true, env: { HERALD_HEARTBEAT_TIMEOUT_MS: '5000' }, account: { email: 'library@herald.dev' }, profiles: ['mia', 'lone', 'solo'] });
  const { api, sandbox } = herald;
  const video = media.clip();
  const photos = media.images(2);
  const posted: Record<string, string> = {};

  async function upload(endpoint: string, fields: Record<string, string | string[]>, files: Record<string, string | string[]> = {}) {
    const res = await herald.postForm(`/api/${endpoint}`, fields, files);
    // An asynchronous request is accepted (202); a synchronous one answers with its results (200).
    expect(res.status).toBe(fields.async_upload ? 202 : 200);
    const done = await herald.waitForCompletion(res.body.request_id);
    expect(Object.entries(done.body.results as Record<string, { success: boolean; error?: string }>).filter(([, r]) => !r.success)).toEqual([]);
    return done.body.results as Record<string, { post_id: string }>;
  }

  const mediaList = (query: string) => api.get(`/api/herald/media?${query}`);

  beforeAll(async () => {
    for (const platform of NINE) await herald.connect(platform, { profile: 'mia' });
  });

  it('publishes a video to the nine networks and finds each post in that network\'s media list', async () => {
    const results = await upload('upload', {
      user: 'mia', 'platform[]': [...NINE], title: 'Library clip', description: 'Found again in the media list.',
      pinterest_board_id: sandbox.env.SANDBOX_PINTEREST_BOARD_ID!, privacy_level: 'PUBLIC_TO_EVERYONE',
      target_linkedin_page_id: sandbox.accounts.linkedin.pageId, async_upload: 'true',
    }, { video });
    for (const p of NINE) {
      posted[p] = results[p]!.post_id;
      const res = await mediaList(`platform=${p}&user=mia`);
      expect([p, res.status, res.body.success]).toEqual([p, 200, true]);
      const item = (res.body.media as Array<Record<string, unknown>>).find((m) => m.id === posted[p]);
      expect([p, item]).toEqual([p, expect.objectContaining({
        id: posted[p], caption: expect.any(String), media_type: expect.stringMatching(/^(VIDEO|IMAGE|CAROUSEL_ALBUM|TEXT)$/), timestamp: expect.any(String),
        permalink: expect.stringMatching(/^https:\/\//), thumbnail_url: expect.anything(),
      })]);
      expect(Object.keys(item!).sort()).toEqual(expect.arrayContaining(['caption', 'id', 'media_type', 'media_url', 'permalink', 'thumbnail_url', 'timestamp']));
      // The spec: no media_url on TikTok and YouTube (use the permalink); a temporary URL elsewhere.
      if (p === 'tiktok' || p === 'youtube') expect([p, item!.media_url]).toEqual([p, null]);
      else expect([p, item!.media_url]).toEqual([p, expect.stringMatching(/^https?:\/\//)]);
      expect(res.body.pagination).toEqual({ limit: p === 'tiktok' ? 20 : 25, next_cursor: null, has_more: false });
    }
  });

  it('lists an Instagram carousel with its children in order', async () => {
    const results = await upload('upload_photos', { user: 'mia', 'platform[]': 'instagram', title: 'Library carousel' },
      { 'photos[]': photos });
    const res = await mediaList('platform=instagram&user=mia&limit=1');
    expect(res.status).toBe(200);
    expect(res.body.media).toEqual([expect.objectContaining({
      id: results.instagram!.post_id, media_type: 'CAROUSEL_ALBUM', caption: 'Library carousel',
      children: [
        { id: expect.any(String), media_type: 'IMAGE', media_url: expect.stringMatching(/^https:/), timestamp: expect.any(String) },
        { id: expect.any(String), media_type: 'IMAGE', media_url: expect.stringMatching(/^https:/), timestamp: expect.any(String) },
      ],
    })]);
    expect(res.body.pagination).toEqual({ limit: 1, next_cursor: expect.any(String), has_more: true });
  });

  it('pages with cursors: limit 1 walks every post once, newest first, on the eight cursor networks', async () => {
    await upload('upload_text', { user: 'mia', 'platform[]': ['x', 'bluesky', 'threads', 'facebook'], title: 'Library text one' });
    await upload('upload_photos', { user: 'mia', 'platform[]': ['pinterest'], title: 'Library pin', pinterest_board_id: sandbox.env.SANDBOX_PINTEREST_BOARD_ID! },
      { 'photos[]': [photos[0]!] });
    await upload('upload', { user: 'mia', 'platform[]': ['tiktok', 'youtube'], title: 'Library clip two', privacy_level: 'PUBLIC_TO_EVERYONE' }, { video });
    for (const p of CURSOR_NETWORKS) {
      const all = (await mediaList(`platform=${p}&user=mia&limit=100`)).body.media.map((m: { id: string }) => m.id) as string[];
      expect([p, all.length >= 2, all.includes(posted[p]!)]).toEqual([p, true, true]);
      const walked: string[] = [];
      let cursor: string | null = null;
      for (let round = 0; round < 20; round++) {
        const res = await mediaList(`platform=${p}&user=mia&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect([p, res.status, res.body.pagination.limit, res.body.media.length]).toEqual([p, 200, 1, 1]);
        walked.push(res.body.media[0].id);
        expect(res.body.pagination.has_more).toBe(res.body.pagination.next_cursor !== null);
        cursor = res.body.pagination.next_cursor;
        if (!cursor) break;
      }
      expect([p, walked]).toEqual([p, all]);
    }
  });

  it('clamps the limit to 1-100, then to each network\'s cap', async () => {
    const cases: Array<[string, string, number]> = [
      ['tiktok', '500', 20], ['youtube', '75', 50], ['instagram', '500', 100], ['linkedin', '100', 100], ['bluesky', '0', 1], ['x', '-3', 1],
    ];
    for (const [p, limit, effective] of cases) {
      const res = await mediaList(`platform=${p}&user=mia&limit=${limit}`);
      expect([p, limit, res.status, res.body.pagination?.limit]).toEqual([p, limit, 200, effective]);
    }
  });

  it('answers every error with its status and body', async () => {
    const bad = async (query: string, status: number, code: string) => {
      const res = await mediaList(query);
      expect([query, res.status, res.body]).toEqual([query, status, expect.objectContaining({ success: false, error_code: code })]);
      if (status !== 503) expect([query, typeof res.body.error]).toEqual([query, 'string']);
      return res.body as { error: string; message: string };
    };
    expect((await bad('user=mia', 400, 'invalid_request')).error).toMatch(/platform is required/);
    expect((await bad('platform=instagram', 400, 'invalid_request')).error).toMatch(/user is required/);
    expect((await bad('platform=instagram&user=mia&limit=ten', 400, 'invalid_request')).error).toMatch(/limit/);
    await bad('platform=reddit&user=mia', 503, 'reddit_unavailable');
    expect((await bad('platform=discord&user=mia', 400, 'platform_not_supported')).error).toMatch(/instagram/);
    expect((await bad('platform=linkedin&user=mia&cursor=abc', 400, 'cursor_not_supported')).error).toMatch(/linkedin/);
    await bad('platform=instagram&user=nobody', 404, 'PROFILE_NOT_FOUND');
    expect((await bad('platform=instagram&user=lone', 400, 'not_connected')).error).toMatch(/lone/);
    await bad('platform=tiktok&user=mia&cursor=not-a-timestamp', 400, 'invalid_cursor');
    await bad('platform=instagram&user=mia&page_urn=123', 400, 'invalid_request');
    await bad('platform=linkedin&user=mia&page_urn=urn:li:organization:999', 400, 'linkedin_page_not_administered');
    // The profile's LinkedIn page is listed by its URN as well.
    const byUrn = await mediaList(`platform=linkedin&user=mia&page_urn=urn:li:organization:${sandbox.accounts.linkedin.pageId}`);
    expect(byUrn.body.media.map((m: { id: string }) => m.id)).toContain(posted.linkedin);
    // A personal LinkedIn profile (no administered page) is not listed.
    const personal = sandbox.simulators.linkedin.createAccount({ name: 'Solo Member' });
    const start = await api.post('/api/herald/oauth/linkedin/start', { profile_username: 'solo', redirect_url: 'https://integrator.example/connected' });
    const authorize = new URL(start.body.authorize_url);
    const approved = await fetch(`${authorize.origin}${authorize.pathname}`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), account: personal.sub, decision: 'allow' }),
    });
    const callback = await fetch(approved.headers.get('location')!, { redirect: 'manual' });
    expect(new URL(callback.headers.get('location')!).searchParams.get('connect_status')).toBe('success');
    expect((await bad('platform=linkedin&user=solo', 400, 'linkedin_page_required')).error).toMatch(/personal profile/);
  });

  describe('lookups', () => {
    const get = (p: string) => api.get(`/api/herald/${p}`);

    // id/name beside page_id/page_name (board_*): the published clients read id and name (issue 29 b).
    it('facebook and linkedin pages, pinterest boards: one profile or all of them', async () => {
      const fb = sandbox.accounts.facebook;
      expect(await get('facebook/pages?profile=mia')).toMatchObject({ status: 200, body: { success: true, pages: expect.arrayContaining([{ page_id: fb.pageId, page_name: expect.any(String), id: fb.pageId, name: expect.any(String), profile: 'mia' }]) } });
      expect((await get('facebook/pages')).body).toMatchObject({ success: true, pages: expect.arrayContaining([expect.objectContaining({ page_id: fb.pageId, profile: 'mia' })]) });
      expect(await get('linkedin/pages?profile=mia')).toMatchObject({ status: 200, body: { success: true, pages: [{
        page_id: sandbox.accounts.linkedin.pageId, page_name: 'Herald Sandbox Page', id: sandbox.accounts.linkedin.pageId, name: 'Herald Sandbox Page', page_urn: `urn:li:organization:${sandbox.accounts.linkedin.pageId}`, role: 'ADMINISTRATOR', profile: 'mia',
      }] } });
      // All profiles: the personal profile of "solo" has no page to list.
      expect((await get('linkedin/pages')).body.pages.map((p: { profile: string }) => p.profile)).toEqual(['mia']);
      expect(await get('pinterest/boards?profile=mia')).toMatchObject({ status: 200, body: { success: true, boards: expect.arrayContaining([
        { board_id: sandbox.env.SANDBOX_PINTEREST_BOARD_ID, board_name: expect.any(String), id: sandbox.env.SANDBOX_PINTEREST_BOARD_ID, name: expect.any(String), description: expect.any(String), privacy: expect.any(String), profile: 'mia' },
      ]) } });
    });

    it('tiktok helpers: trending and searched music, at most 20 locations, creator settings', async () => {
      const trending = await get('tiktok/music/trending?profile=mia');
      expect(trending).toMatchObject({ status: 200, body: { success: true, music: expect.arrayContaining([expect.objectContaining({ music_id: expect.any(String), title: 'Summer Vibes', author: 'Sunny Beats', profile: 'mia' })]) } });
      const search = await get('tiktok/music/search?profile=mia&query=lo-fi');
      expect(search.body.music.map((m: { title: string }) => m.title).sort()).toEqual(['Bakery Morning', 'Morning Coffee']);
      const places = await get('tiktok/locations?profile=mia&query=paris');
      expect(places).toMatchObject({ status: 200, body: { success: true, query: 'paris' } });
      expect(places.body.locations).toHaveLength(20);
      expect(places.body.locations[0]).toEqual({ location_id: expect.any(String), location_name: 'Paris Bakery 1', address: expect.any(String), profile: 'mia' });
      expect(await get('tiktok/settings?profile=mia')).toMatchObject({ status: 200, body: {
        success: true, profile: 'mia', platform: 'tiktok', privacy_level_options: expect.arrayContaining(['PUBLIC_TO_EVERYONE']),
        max_video_post_duration_sec: expect.any(Number), comment_disabled: expect.any(Boolean), duet_disabled: expect.any(Boolean), stitch_disabled: expect.any(Boolean),
      } });
      expect(await get('tiktok/music/search?profile=mia')).toMatchObject({ status: 400, body: { success: false, error_code: 'invalid_request' } });
      expect(await get('tiktok/settings')).toMatchObject({ status: 400, body: { success: false, message: expect.stringMatching(/profile is required/) } });
    });

    it('publishing limits: instagram from content_publishing_limit, threads 250 posts and 1,000 replies per 24 hours', async () => {
      const ig = await get('instagram/publishing_limit?profile=mia');
      expect(ig).toMatchObject({ status: 200, body: { success: true, profile: 'mia', platform: 'instagram', quota_usage: expect.any(Number), quota_total: expect.any(Number), quota_duration_seconds: 86400 } });
      expect(ig.body.quota_usage).toBeGreaterThanOrEqual(2);
      expect(ig.body.quota_remaining).toBe(ig.body.quota_total - ig.body.quota_usage);
      const th = await get('threads/publishing_limit?profile=mia');
      expect(th).toMatchObject({ status: 200, body: { success: true, platform: 'threads',
        posts: { usage: expect.any(Number), total: 250, remaining: expect.any(Number), duration_seconds: 86400 },
        replies: { usage: expect.any(Number), total: 1000, remaining: expect.any(Number), duration_seconds: 86400 } } });
      expect(th.body.posts.usage).toBeGreaterThanOrEqual(2);
    });

    it('answers 404 for an unknown profile and 400 when the network is not connected, on every lookup', async () => {
      const paths = ['facebook/pages', 'linkedin/pages', 'pinterest/boards', 'tiktok/music/trending', 'tiktok/music/search?query=x', 'tiktok/locations?query=x',
        'tiktok/settings', 'instagram/publishing_limit', 'threads/publishing_limit'];
      for (const p of paths) {
        const sep = p.includes('?') ? '&' : '?';
        expect([p, await get(`${p}${sep}profile=nobody`)]).toEqual([p, expect.objectContaining({ status: 404, body: expect.objectContaining({ success: false, error_code: 'PROFILE_NOT_FOUND' }) })]);
        expect([p, await get(`${p}${sep}profile=lone`)]).toEqual([p, expect.objectContaining({ status: 400, body: expect.objectContaining({ success: false, error_code: 'not_connected' }) })]);
      }
    });
  });
});
