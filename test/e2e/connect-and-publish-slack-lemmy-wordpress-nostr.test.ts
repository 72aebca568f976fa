import { media, useHerald } from '../support/e2e';

jest.setTimeout(300_000);

const FOUR = ['slack', 'lemmy', 'wordpress', 'nostr'] as const;

/**
 * Issue 14 (slack, lemmy, wordpress, nostr) end to end: each connected through
 * `POST /users/<net>/credentials` with the sandbox's values (checked with the network), then one
 * text request to all four, one photo request to lemmy and wordpress and one video to wordpress,
 * through the real API, worker and Temporal, against the sandbox's simulators.
 */
describe('slack, lemmy, wordpress and nostr through the API', () => {
  const herald = useHerald({ sandbox: true, account: { email: 'netb@herald.dev' }, profiles: ['nora'] });
  const { api, sandbox } = herald;
  const photo = media.image({ color: '0x336699', size: '800x600' });
  const video = media.clip({ seconds: 2, size: '640x360', rate: 25, audio: false });

  it('connects the four with credentials verified by each network, and refuses wrong ones with invalid_credentials', async () => {
    const env = sandbox.env;
    for (const net of FOUR) expect(await herald.connect(net, { profile: 'nora' })).toMatchObject({ kind: 'credentials', answer: { status: 200 } });
    const wrong = await api.post('/api/herald/users/lemmy/credentials', { profile_username: 'nora', ...herald.credentialsOf('lemmy'), password: 'not-it' });
    expect(wrong).toMatchObject({ status: 400, body: { success: false, error_code: 'invalid_credentials' } });
    const missing = await api.post('/api/herald/users/wordpress/credentials', { profile_username: 'nora', site_url: env.SANDBOX_WORDPRESS_SITE_URL });
    expect(missing).toMatchObject({ status: 400, body: { success: false } });
    const profile = await api.get('/api/herald/users/nora');
    for (const net of FOUR) expect(profile.body.profile.social_accounts[net]).toMatchObject({ username: expect.any(String), reauth_required: false });
  });

  it('publishes one text request to all four, with their own fields and per-network results', async () => {
    const res = await api.post('/api/upload_text', {
      user: 'nora', 'platform[]': [...FOUR], title: 'Plain words to four networks.', description: 'A longer body for Lemmy and WordPress.',
      lemmy_title: 'Four networks at once', wordpress_status: 'draft', nostr_hashtags: 'herald', slack_unfurl_links: 'false',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', all_succeeded: true, summary: { total: 4, succeeded: 4 } });
    for (const net of FOUR) expect(res.body.results[net]).toMatchObject({ success: true, post_id: expect.any(String), warnings: expect.any(Array) });
    const sims = sandbox.simulators;
    expect(sims.slack.messages().map((m) => m.text)).toContain('Plain words to four networks.');
    expect(sims.lemmy.posts()).toContainEqual(expect.objectContaining({ name: 'Four networks at once', body: 'A longer body for Lemmy and WordPress.' }));
    expect(sims.wordpress.posts()).toContainEqual(expect.objectContaining({ title: 'Plain words to four networks.', status: 'draft' }));
    const note = sims.nostr.events().find((e) => e.id === res.body.results.nostr.post_id)!;
    expect(note).toMatchObject({ kind: 1, content: 'Plain words to four networks.', tags: [['t', 'herald']] });
  });

  it('publishes a photo to lemmy and wordpress, and a video to wordpress', async () => {
    const res = await herald.publish({ user: 'nora', 'platform[]': ['lemmy', 'wordpress'], title: 'A blue photo' }, { photos: [photo] });
    expect(res.status).toBe(200);
    const done = await herald.waitForCompletion(res.body.request_id);
    expect(done.body).toMatchObject({ all_succeeded: true, summary: { total: 2, succeeded: 2 } });
    expect(sandbox.simulators.lemmy.images()).toHaveLength(1);
    expect(sandbox.simulators.wordpress.posts()).toContainEqual(expect.objectContaining({ title: 'A blue photo', featured_media: expect.any(Number) }));

    const vres = await herald.publish({ user: 'nora', 'platform[]': ['wordpress'], title: 'A short clip', async_upload: true }, { video });
    expect(vres.status).toBe(202);
    const vdone = await herald.waitForCompletion(vres.body.request_id);
    expect(vdone.body).toMatchObject({ all_succeeded: true, summary: { total: 1, succeeded: 1 } });
    expect(sandbox.simulators.wordpress.media().map((m) => m.mime_type)).toContain('video/mp4');
  });
});
