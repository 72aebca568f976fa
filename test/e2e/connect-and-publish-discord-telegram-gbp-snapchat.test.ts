import { media, useHerald } from '../support/e2e';

jest.setTimeout(300_000);

/**
 * Issue 14 (discord and telegram media, google_business, snapchat) end to end, in the style of
 * all-networks.test.ts: the sandbox simulators, the real API and worker on Temporal, FerretDB and
 * Redis; each network connected through its real connect flow, then one photo request, one video
 * request and one text request, with per-network results and warnings, and the posts read back
 * from the simulators.
 */
describe('discord and telegram media, google_business, snapchat', () => {
  const herald = useHerald({ sandbox: true, env: { HERALD_HEARTBEAT_TIMEOUT_MS: '5000' }, account: { email: 'netc@herald.dev' }, profiles: ['gina'] });
  const { api, sandbox } = herald;
  const video = media.clip({ seconds: 6 });
  // testsrc photos: Google takes photos of 10 KB or more, which a plain colour JPEG is not.
  const photos = [1, 2, 3].map((frame) => media.image({ pattern: 'testsrc2', frame }));

  it('connects discord and telegram by credentials, google_business and snapchat through authorize page and callback', async () => {
    for (const platform of ['discord', 'telegram']) expect(await herald.connect(platform, { profile: 'gina' })).toMatchObject({ kind: 'credentials' });
    for (const platform of ['google_business', 'snapchat']) expect(await herald.connect(platform, { profile: 'gina' })).toMatchObject({ kind: 'oauth' });
    const profile = await api.get('/api/herald/users/gina');
    expect(Object.keys(profile.body.profile.social_accounts).sort()).toEqual(['discord', 'google_business', 'snapchat', 'telegram']);
  });

  it('lists the Business Profile locations and pins one to the profile', async () => {
    const locationId = sandbox.accounts.google_business.locationId;
    const listed = await api.get('/api/herald/google-business/locations?profile=gina');
    expect(listed).toMatchObject({ status: 200, body: { success: true, locations: [{ location_id: locationId, location_name: 'Herald Sandbox Bakery', account_id: sandbox.accounts.google_business.accountId, profile: 'gina' }] } });
    expect((await api.get('/api/herald/google-business/locations')).body.locations).toHaveLength(1);
    expect((await api.get('/api/herald/google-business/locations?profile=nobody')).status).toBe(404);
    expect((await api.post('/api/herald/users', { username: 'hal' })).status).toBe(201);
    expect(await api.get('/api/herald/google-business/locations?profile=hal')).toMatchObject({ status: 400, body: { success: false, error_code: 'not_connected' } });
    expect(await api.post('/api/herald/users/google-business-location', { profile_username: 'gina', location_id: locationId }))
      .toMatchObject({ status: 200, body: { success: true, location_id: locationId } });
  });

  it('publishes three photos to discord (attachments), telegram (an album) and google_business (a local post) in one request', async () => {
    const res = await herald.publish({
      user: 'gina', 'platform[]': ['discord', 'telegram', 'google_business'], title: 'Three photos from Herald',
      discord_alt_text: 'one||two||three', gbp_location_id: 'ignored-because-pinned',
    }, { photos });
    expect(res.status).toBe(200);
    const done = await herald.waitForCompletion(res.body.request_id);
    expect(Object.values(done.body.results as Record<string, { success: boolean }>).filter((r) => !r.success)).toEqual([]);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'photo', summary: { total: 3, succeeded: 3 } });
    const sims = sandbox.simulators;
    const message = sims.discord.messages().find((m) => m.id === done.body.results.discord.post_id)!;
    expect(message.attachments.map((a) => a.description)).toEqual(['one', 'two', 'three']);
    const album = sims.telegram.messages().filter((m) => m.media_group_id);
    expect(album).toHaveLength(3);
    expect(album[0]).toMatchObject({ caption: 'Three photos from Herald' });
    const local = sims.google_business.posts(sandbox.accounts.google_business.locationId);
    expect(local).toEqual([expect.objectContaining({ name: done.body.results.google_business.post_id })]);
    expect((local[0]!.body.media as unknown[])).toHaveLength(3);
  });

  it('publishes one video to discord, telegram, google_business and snapchat (a Spotlight) in one request', async () => {
    const res = await herald.publish({
      user: 'gina', 'platform[]': ['discord', 'telegram', 'google_business', 'snapchat'], title: 'A clip #herald', snapchat_post_type: 'SPOTLIGHT', async_upload: true,
    }, { video });
    expect(res.status).toBe(202);
    const done = await herald.waitForCompletion(res.body.request_id);
    expect(Object.values(done.body.results as Record<string, { success: boolean }>).filter((r) => !r.success)).toEqual([]);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'video', summary: { total: 4, succeeded: 4 } });
    const sims = sandbox.simulators;
    expect(sims.discord.messages().find((m) => m.id === done.body.results.discord.post_id)!.attachments).toEqual([expect.objectContaining({ content_type: 'video/mp4' })]);
    expect(sims.telegram.messages().find((m) => String(m.message_id) === done.body.results.telegram.post_id)).toMatchObject({ caption: 'A clip #herald', video: expect.any(Object) });
    expect(sims.google_business.posts().find((p) => p.name === done.body.results.google_business.post_id)!.body.media).toEqual([expect.objectContaining({ mediaFormat: 'VIDEO' })]);
    expect(sims.snapchat.posts()).toEqual([expect.objectContaining({ id: done.body.results.snapchat.post_id, kind: 'spotlight', description: 'A clip #herald' })]);
  });

  it('publishes text to discord, telegram (split past 4,096 characters, with a warning) and a google_business EVENT', async () => {
    const long = `${'Herald news. '.repeat(400)}The end.`;
    const res = await api.post('/api/upload_text', {
      user: 'gina', 'platform[]': ['discord', 'telegram', 'google_business'], title: 'Short news for everyone',
      telegram_title: long,
      gbp_post_type: 'EVENT', gbp_event_title: 'Open day', gbp_event_start: '2026-12-20T10:00', gbp_event_end: '2026-12-20T16:00',
      gbp_cta_type: 'LEARN_MORE', gbp_cta_url: 'https://bakery.example/open-day',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', all_succeeded: true, summary: { total: 3, succeeded: 3 } });
    expect(res.body.results.telegram.warnings.join(' ')).toMatch(/sent as 2 messages/);
    const event = sandbox.simulators.google_business.posts().find((p) => p.name === res.body.results.google_business.post_id)!;
    expect(event.body).toMatchObject({ topicType: 'EVENT', summary: 'Short news for everyone', event: { title: 'Open day' }, callToAction: { actionType: 'LEARN_MORE' } });
    // An EVENT without its schedule is refused at intake, naming the fields, before anything is sent.
    const bad = await api.post('/api/upload_text', { user: 'gina', 'platform[]': ['google_business'], title: 'x', gbp_post_type: 'EVENT' });
    expect(bad.status).toBe(400);
    expect(bad.body.violations.map((v: { field: string }) => v.field)).toEqual(['gbp_event_title', 'gbp_event_start', 'gbp_event_end']);
  });
});
