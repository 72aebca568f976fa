import { createHash } from 'node:crypto';
import { media, useHerald } from '../support/e2e';

jest.setTimeout(300_000);

const OAUTH = ['tiktok', 'instagram', 'threads', 'facebook', 'youtube', 'linkedin', 'x', 'pinterest'] as const;
const NINE = [...OAUTH, 'bluesky'] as const;

/**
 * Issue 4's end to end: every network connected through its real connect flow (OAuth authorize
 * page + callback, or app password), then ONE request with a video to all nine networks, and one
 * with photos, through Temporal, with per-network results, warnings, status and history.
 */
describe('one request to all nine networks', () => {
  const herald = useHerald({ sandbox: true, env: { HERALD_HEARTBEAT_TIMEOUT_MS: '5000' }, account: { email: 'all@herald.dev' }, profiles: ['nina'] });
  const { api, stack, sandbox } = herald;
  const video = media.clip();
  const photos = media.images(2);
  const png = media.image({ size: '1080x1080', format: 'png' });

  it('connects eight OAuth networks through authorize page and callback, and bluesky with an app password', async () => {
    for (const platform of OAUTH) {
      const { callback } = await herald.connect(platform, { profile: 'nina' });
      expect(callback!.origin + callback!.pathname).toBe(`${stack.apiUrl}/api/herald/oauth/${platform}/callback`);
    }
    expect(await herald.connect('bluesky', { profile: 'nina' })).toMatchObject({ kind: 'credentials', answer: { status: 200, body: { success: true } } });
    const profile = await api.get('/api/herald/users/nina');
    expect(Object.keys(profile.body.profile.social_accounts).sort()).toEqual([...NINE].sort());
    for (const p of NINE) expect(profile.body.profile.social_accounts[p]).toMatchObject({ username: expect.any(String), reauth_required: false });
  });

  it('publishes one video to all nine networks with per-network results and a first comment', async () => {
    const res = await herald.publish({
      user: 'nina', 'platform[]': [...NINE], title: 'Herald everywhere', description: 'One request, nine networks.',
      pinterest_board_id: sandbox.env.SANDBOX_PINTEREST_BOARD_ID!, privacy_level: 'PUBLIC_TO_EVERYONE', first_comment: 'First!', async_upload: true,
    }, { video });
    expect(res.status).toBe(202);
    const done = await herald.waitForCompletion(res.body.request_id);
    const failed = Object.values(done.body.results as Record<string, { success: boolean; platform: string; error?: string }>).filter((r) => !r.success);
    expect(failed).toEqual([]);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'video', summary: { total: 9, succeeded: 9 } });
    for (const p of NINE) {
      expect(done.body.results[p]).toMatchObject({ success: true, post_id: expect.any(String), warnings: expect.any(Array) });
    }
    // Networks with first comments took it; Pinterest has none and says so.
    for (const p of ['youtube', 'x', 'threads', 'bluesky', 'facebook', 'instagram', 'linkedin'] as const) {
      expect([p, done.body.results[p].first_comment_posted]).toEqual([p, true]);
    }
    expect(done.body.results.pinterest.warnings.join(' ')).toMatch(/first comment/i);
    // The networks hold the posts: a few read back from their simulators.
    const sims = sandbox.simulators;
    expect(sims.youtube.videos().length).toBeGreaterThanOrEqual(1);
    expect(sims.tiktok.posts().length).toBeGreaterThanOrEqual(1);
    expect(sims.pinterest.pins().length).toBeGreaterThanOrEqual(1);
    expect(sims.bluesky.posts().some((p) => JSON.stringify(p).includes('Herald everywhere'))).toBe(true);
    const history = await api.get(`/api/herald/history?request_id=${res.body.request_id}`);
    expect(history.body.history).toHaveLength(1);
    expect(history.body.history[0]).toMatchObject({ status: 'completed', all_succeeded: true });
  });

  it('refuses a TikTok privacy level the account does not offer with 400, before anything is sent', async () => {
    const before = sandbox.simulators.tiktok.posts().length;
    const { status, body } = await herald.publish({ user: 'nina', 'platform[]': ['tiktok', 'youtube'], title: 'Followers only', privacy_level: 'FOLLOWER_OF_CREATOR' }, { video });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error_code: 'tiktok_privacy_unavailable', violations: [{ platform: 'tiktok', error_code: 'tiktok_privacy_unavailable' }] });
    expect(body.message).toContain('PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY');
    expect(sandbox.simulators.tiktok.posts().length).toBe(before);
  });

  it('publishes two photos to the eight photo networks in one request', async () => {
    const photoNetworks = ['tiktok', 'instagram', 'threads', 'facebook', 'linkedin', 'x', 'pinterest', 'bluesky'];
    // Sent as application/octet-stream, like curl -F photos[]=@photo.jpg does: Herald finds the real type.
    const res = await herald.publish({ user: 'nina', 'platform[]': photoNetworks, title: 'Two photos', pinterest_board_id: sandbox.env.SANDBOX_PINTEREST_BOARD_ID! },
      { photos: photos.map((file) => ({ file, type: 'application/octet-stream' })) });
    expect(res.status).toBe(200);
    const done = await herald.waitForCompletion(res.body.request_id);
    expect(Object.values(done.body.results as Record<string, { success: boolean }>).filter((r) => !r.success)).toEqual([]);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'photo', summary: { total: 8, succeeded: 8 } });
  });

  it('publishes a PNG photo: Instagram gets its JPEG rendition (it refuses PNG), Threads and Facebook the PNG itself', async () => {
    const res = await herald.publish({ user: 'nina', 'platform[]': ['instagram', 'threads', 'facebook'], title: 'A PNG card' }, { photos: [png] });
    expect(res.status).toBe(200);
    const done = await herald.waitForCompletion(res.body.request_id);
    expect(done.body).toMatchObject({ all_succeeded: true, summary: { total: 3, succeeded: 3 } });
    const pngId = createHash('sha256').update(media.bytes(png)).digest('hex');
    const post = sandbox.simulators.instagram.posts().find((m) => m.caption === 'A PNG card')!;
    expect(post).toMatchObject({ media_type: 'IMAGE' });
    // Served by Herald's signed media URL, from the media store: a different file than the PNG.
    expect(new URL(post.params.image_url!).pathname).toMatch(/^\/media\/[0-9a-f]{64}$/);
    expect(post.params.image_url).not.toContain(pngId);
  });

  it('publishes text to the text networks, to the Facebook page pinned to the profile', async () => {
    const pageId = sandbox.accounts.facebook.pageId;
    expect(await api.post('/api/herald/users/facebook-page', { profile_username: 'nina', page_id: pageId })).toMatchObject({ status: 200, body: { success: true, page_id: pageId } });
    expect(await api.get('/api/herald/users/facebook-page?profile_username=nina')).toMatchObject({ status: 200, body: { page_id: pageId } });
    const res = await api.post('/api/upload_text', { user: 'nina', 'platform[]': ['x', 'linkedin', 'facebook', 'threads', 'bluesky'], title: 'Plain words to five networks.', facebook_page_id: 'not-a-page' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', all_succeeded: true, summary: { total: 5, succeeded: 5 } });
    expect(res.body.results.facebook).toMatchObject({ success: true, page_id: pageId });
  });
});
