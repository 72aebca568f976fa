import { media, useHerald } from '../support/e2e';

jest.setTimeout(300_000);

const WAVE2 = ['mastodon', 'devto', 'hashnode', 'whop', 'listmonk'] as const;

/**
 * Issue 14 (Mastodon, DEV, Hashnode, Whop, listmonk) end to end, in the style of all-networks:
 * each network connected through `POST /users/<net>/credentials` (verified with its simulator),
 * then one text request to the five through the API, Temporal and the worker, and Mastodon's photo
 * and video endpoints, with the posts read back from the simulators the sandbox runs.
 */
describe('mastodon, devto, hashnode, whop and listmonk connected by credentials, through the API and the worker', () => {
  const herald = useHerald({ sandbox: true, env: { HERALD_HEARTBEAT_TIMEOUT_MS: '5000' }, account: { email: 'wave2@herald.dev' }, profiles: ['wanda'] });
  const { api, sandbox } = herald;
  const video = media.clip({ seconds: 2, size: '640x360', rate: 25, audio: false });
  const photos = media.images(2, { size: '800x600' });

  it('connects the five networks with credentials verified by each network', async () => {
    // Each with the sandbox's values of the fields its descriptor declares, checked by the network.
    for (const platform of WAVE2) expect(await herald.connect(platform, { profile: 'wanda' })).toMatchObject({ kind: 'credentials', answer: { status: 200 } });
    // A wrong secret is refused by the network and nothing is stored.
    const wrong = await api.post('/api/herald/users/devto/credentials', { profile_username: 'wanda', api_key: 'notthekey1234' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, error_code: 'invalid_credentials' });
    const profile = await api.get('/api/herald/users/wanda');
    for (const p of WAVE2) expect([p, profile.body.profile.social_accounts[p]]).toEqual([p, expect.objectContaining({ username: expect.any(String), reauth_required: false })]);
  });

  it('publishes one text request to the five networks', async () => {
    const res = await api.post('/api/upload_text', {
      user: 'wanda', 'platform[]': [...WAVE2], title: 'Wave two is live', description: 'Five more networks, **one** request.',
      devto_tags: 'herald,release', hashnode_subtitle: 'Release notes', mastodon_visibility: 'unlisted',
    });
    expect(res.status).toBe(200);
    const failed = Object.values(res.body.results as Record<string, { success: boolean }>).filter((r) => !r.success);
    expect(failed).toEqual([]);
    expect(res.body).toMatchObject({ status: 'completed', all_succeeded: true, summary: { total: 5, succeeded: 5 } });
    for (const p of WAVE2) expect(res.body.results[p]).toMatchObject({ success: true, post_id: expect.any(String), warnings: expect.any(Array) });
    const sims = sandbox.simulators;
    expect(sims.mastodon.statuses().find((s) => s.id === res.body.results.mastodon.post_id)).toMatchObject({ text: 'Wave two is live', visibility: 'unlisted' });
    expect(sims.devto.articles().find((a) => String(a.id) === res.body.results.devto.post_id)).toMatchObject({ title: 'Wave two is live', body_markdown: 'Five more networks, **one** request.', tags: ['herald', 'release'] });
    expect(sims.hashnode.posts().find((p) => p.id === res.body.results.hashnode.post_id)).toMatchObject({ title: 'Wave two is live', subtitle: 'Release notes' });
    expect(sims.whop.posts().find((p) => p.id === res.body.results.whop.post_id)).toMatchObject({ title: 'Wave two is live', content: 'Five more networks, **one** request.' });
    expect(sims.listmonk.campaigns().find((c) => String(c.id) === res.body.results.listmonk.post_id)).toMatchObject({ subject: 'Wave two is live', status: 'running' });
  });

  it('publishes two photos and a video to Mastodon (media processing polled by the workflow)', async () => {
    const res = await herald.publish({ user: 'wanda', 'platform[]': ['mastodon'], title: 'Two photos', mastodon_alt_text: 'Blue||Lighter blue' }, { photos });
    expect(res.status).toBe(200);
    const done = await herald.waitForCompletion(res.body.request_id);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'photo' });
    const status = sandbox.simulators.mastodon.statuses().find((s) => s.id === done.body.results.mastodon.post_id)!;
    expect(status.media_ids).toHaveLength(2);

    const vres = await herald.publish({ user: 'wanda', 'platform[]': ['mastodon'], title: 'A clip', async_upload: true }, { video });
    expect(vres.status).toBe(202);
    const vdone = await herald.waitForCompletion(vres.body.request_id);
    expect(vdone.body).toMatchObject({ all_succeeded: true, media_type: 'video' });
    const clip = sandbox.simulators.mastodon.statuses().find((s) => s.id === vdone.body.results.mastodon.post_id)!;
    expect(sandbox.simulators.mastodon.media().find((m) => m.id === clip.media_ids[0])).toMatchObject({ type: 'video', url: expect.any(String) });
  });

  it('publishes one photo request to Slack (files upload v2) and listmonk (media library), an extension of the spec\'s photo list', async () => {
    // The sandbox's bot token and channel (files upload v2 needs a bot connection, not a webhook).
    expect((await herald.connect('slack', { profile: 'wanda' })).answer.status).toBe(200);
    const res = await herald.publish({ user: 'wanda', 'platform[]': ['slack', 'listmonk'], title: 'Photos for the team' }, { photos });
    expect(res.status).toBe(200);
    const done = await herald.waitForCompletion(res.body.request_id);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'photo' });
    const sims = sandbox.simulators;
    const message = sims.slack.messages().find((m) => m.ts === done.body.results.slack.post_id)!;
    expect(message).toMatchObject({ text: 'Photos for the team', files: [expect.any(String), expect.any(String)] });
    const campaign = sims.listmonk.campaigns().find((c) => String(c.id) === done.body.results.listmonk.post_id)!;
    expect(campaign.status).toBe('running');
    for (const m of sims.listmonk.media().slice(-2)) expect(campaign.body).toContain(m.url);
  });
});
