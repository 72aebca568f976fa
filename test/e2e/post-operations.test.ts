import { media, useHerald } from '../support/e2e';

jest.setTimeout(300_000);

const OAUTH = ['facebook', 'linkedin', 'x', 'youtube'] as const;
const TEXT = ['facebook', 'linkedin', 'x', 'discord', 'telegram', 'mastodon'] as const;

/**
 * Issue 11's published-post operations end to end: posts published through the API and the worker,
 * then edited, reposted and unpublished through /posts/*, with the networks' simulators holding the
 * result, status and history showing it, and every error body.
 */
describe('published-post operations', () => {
  const herald = useHerald({ sandbox: true, env: { HERALD_HEARTBEAT_TIMEOUT_MS: '5000' }, account: { email: 'postops@herald.dev' }, profiles: ['pat'] });
  const { api, stack, sandbox } = herald;
  let textUpload: { request_id: string; results: Record<string, { post_id: string; url?: string }> };
  let videoUpload: { request_id: string; results: Record<string, { post_id: string }> };
  const video = media.clip({ seconds: 3, size: '1280x720', rate: 25, audio: false });
  const thumb = media.image({ size: '1280x720', format: 'png' });

  beforeAll(async () => {
    for (const platform of [...OAUTH, 'pinterest', 'discord', 'telegram', 'mastodon']) await herald.connect(platform, { profile: 'pat' });

    const text = await api.post('/api/upload_text', { user: 'pat', 'platform[]': [...TEXT], title: 'Before the edit' });
    expect(text.body).toMatchObject({ status: 'completed', all_succeeded: true });
    textUpload = text.body;
    const done = await herald.publishAndWait({
      // `twitter`: the video endpoint's spelling of x (spec), taken as x.
      user: 'pat', 'platform[]': ['youtube', 'twitter'], title: 'A video to change', description: 'Original description', tags: ['one', 'two'], async_upload: true,
    }, { video });
    expect(done.body).toMatchObject({ all_succeeded: true, platforms: ['youtube', 'x'], results: { x: { success: true, post_id: expect.any(String) } } });
    expect(done.body.results.twitter).toBeUndefined();
    videoUpload = done.body;
  });

  const edit = (body: Record<string, unknown>) => api.post('/api/herald/posts/edit', { user: 'pat', ...body });
  const postOf = (p: (typeof TEXT)[number]) => textUpload.results[p]!.post_id;

  it('edits on each network answer in the spec shapes, and the networks show the new text', async () => {
    const sims = sandbox.simulators;
    const fb = await edit({ platform: 'facebook', post_id: postOf('facebook'), message: 'After the edit (facebook)' });
    expect(fb).toMatchObject({ status: 200, body: { success: true, platform: 'facebook', post_id: postOf('facebook'), updated: ['message'] } });
    expect(sims.facebook.posts().find((p) => p.id === postOf('facebook'))?.message).toBe('After the edit (facebook)');

    const li = await api.post('/api/herald/posts/action', { action: 'edit', user: 'pat', platform: 'linkedin', post_id: postOf('linkedin'), commentary: 'After the edit (linkedin)', linkedin_visibility: 'CONNECTIONS' });
    expect(li).toMatchObject({ status: 200, body: { success: true, message: expect.any(String), post_id: postOf('linkedin'), url: `https://www.linkedin.com/feed/update/${postOf('linkedin')}` } });
    expect(sims.linkedin.posts().find((p) => p.id === postOf('linkedin'))).toMatchObject({ text: 'After the edit (linkedin)', visibility: 'CONNECTIONS' });

    const x = await edit({ platform: 'x', post_id: postOf('x'), text: 'After the edit (x)' });
    expect(x.status).toBe(200);
    expect(x.body).toMatchObject({ success: true, previous_post_id: postOf('x'), edit_history_post_ids: [postOf('x'), x.body.post_id], url: expect.stringContaining(x.body.post_id), message: expect.any(String) });
    expect(x.body.post_id).not.toBe(postOf('x'));
    expect(sims.x.tweets().find((t) => t.id === x.body.post_id)?.text).toBe('After the edit (x)');

    for (const p of ['discord', 'telegram', 'mastodon'] as const) {
      const res = await edit({ platform: p, post_id: postOf(p), message: `After the edit (${p})` });
      expect([p, res.status, res.body.success, res.body.post_id]).toEqual([p, 200, true, postOf(p)]);
    }
    expect(sims.discord.messages().find((m) => m.id === postOf('discord'))?.content).toBe('After the edit (discord)');
    expect(sims.telegram.messages().find((m) => String(m.message_id) === postOf('telegram'))?.text).toBe('After the edit (telegram)');
    expect(sims.mastodon.statuses().find((s) => s.id === postOf('mastodon'))?.text).toBe('After the edit (mastodon)');

    // Status and history show the edits; X's result carries the new id and its chain.
    const status = await api.get(`/api/herald/status?request_id=${textUpload.request_id}`);
    for (const p of TEXT) expect([p, status.body.results[p]]).toEqual([p, expect.objectContaining({ edited_at: expect.any(String), edit_count: 1 })]);
    expect(status.body.results.x).toMatchObject({ post_id: x.body.post_id, previous_post_id: postOf('x'), edit_history_post_ids: [postOf('x'), x.body.post_id] });
    expect(status.body.results.linkedin.updated_fields).toEqual(['commentary', 'linkedin_visibility']);
    const history = await api.get(`/api/herald/history?request_id=${textUpload.request_id}`);
    expect(history.body.history[0].results.facebook).toMatchObject({ edited_at: expect.any(String), updated_fields: ['message'] });
    // The new X id is the post now: a second edit goes to it.
    const again = await edit({ platform: 'x', post_id: x.body.post_id, text: 'Second edit (x)' });
    expect(again.body.edit_history_post_ids).toEqual([postOf('x'), x.body.post_id, again.body.post_id]);
  });

  it('YouTube: edits with youtube_ aliases keep the rest of the snippet; a thumbnail is set from a file', async () => {
    const videoId = videoUpload.results.youtube!.post_id;
    const res = await edit({ platform: 'youtube', video_id: videoId, youtube_title: 'A changed video', tags: 'three,four', privacyStatus: 'unlisted' });
    expect(res).toMatchObject({ status: 200, body: { success: true, platform: 'youtube', post_id: videoId, updated: ['title', 'tags', 'privacyStatus'] } });
    const stored = sandbox.simulators.youtube.videos().find((v) => v.id === videoId)!;
    expect(stored.resource).toMatchObject({ snippet: { title: 'A changed video', description: 'Original description', tags: ['three', 'four'] }, status: { privacyStatus: 'unlisted' } });

    const form = new FormData();
    form.append('user', 'pat');
    form.append('video_id', videoId);
    form.append('thumbnail', new Blob([media.bytes(thumb)], { type: 'image/png' }), 'thumb.png');
    const set = await fetch(`${stack.apiUrl}/api/herald/youtube/thumbnail`, { method: 'POST', headers: { Authorization: `Apikey ${herald.key}` }, body: form });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ success: true, video_id: videoId, thumbnail_url: expect.stringMatching(/^https:/) });
    expect(sandbox.simulators.youtube.videos().find((v) => v.id === videoId)!.thumbnail).toMatchObject({ contentType: 'image/png' });
    // Status reads are cached (2 s here) only while nothing changed: the operations show on the next read.
    const status = await api.get(`/api/herald/status?request_id=${videoUpload.request_id}`);
    expect(status.body.results.youtube).toMatchObject({ edited_at: expect.any(String), thumbnail_set_at: expect.any(String) });
  });

  it('saves a Pinterest pin to another board through POST /posts/save, shown in status as saves[]', async () => {
    const board = sandbox.env.SANDBOX_PINTEREST_BOARD_ID!;
    const pin = await herald.publishAndWait({ user: 'pat', 'platform[]': ['pinterest'], title: 'A pin to keep', pinterest_board_id: board, async_upload: true }, { photos: [media.image()] });
    expect(pin.body).toMatchObject({ all_succeeded: true });
    const pinId = pin.body.results.pinterest.post_id as string;
    const saved = await api.post('/api/herald/posts/save', { user: 'pat', platform: 'pinterest', post_id: pinId, board_id: board });
    expect(saved).toMatchObject({ status: 200, body: { success: true, platform: 'pinterest', post_id: pinId, saved_post_id: expect.any(String), board_id: board } });
    const status = await api.get(`/api/herald/status?request_id=${pin.body.request_id}`);
    expect(status.body.results.pinterest.saves).toEqual([expect.objectContaining({ post_id: saved.body.saved_post_id, board_id: board, at: expect.any(String) })]);
    expect(await api.post('/api/herald/posts/save', { user: 'pat', platform: 'pinterest', post_id: pinId })).toMatchObject({ status: 400, body: { success: false } });
  });

  it('reposts on LinkedIn and X', async () => {
    const li = await api.post('/api/herald/posts/repost', { user: 'pat', platform: 'linkedin', post_id: postOf('linkedin') });
    expect(li).toMatchObject({ status: 200, body: { success: true, platform: 'linkedin', post_id: postOf('linkedin'), repost_id: expect.stringMatching(/^urn:li:share:/) } });
    expect(sandbox.simulators.linkedin.posts().find((p) => p.id === li.body.repost_id)).toMatchObject({ reshareOf: postOf('linkedin') });
    const before = await api.get(`/api/herald/status?request_id=${textUpload.request_id}`);
    expect(before.body.results.x.edit_count).toBe(2);
    const x = await api.post('/api/herald/posts/repost', { user: 'pat', platform: 'x', post_id: before.body.results.x.post_id });
    expect(x).toMatchObject({ status: 200, body: { success: true, platform: 'x', repost_id: expect.any(String) } });
    expect(sandbox.simulators.x.tweets().find((t) => t.id === x.body.repost_id)).toMatchObject({ retweet_of: before.body.results.x.post_id });
    const status = await api.get(`/api/herald/status?request_id=${textUpload.request_id}`);
    expect(status.body.results.linkedin.reposts).toEqual([expect.objectContaining({ post_id: li.body.repost_id })]);
    expect(status.body.results.x.reposts).toEqual([expect.objectContaining({ post_id: x.body.repost_id })]);
  });

  it('publishes a LinkedIn document through the upload workflow', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const form = new FormData();
    form.append('user', 'pat');
    form.append('title', 'Quarterly report');
    form.append('description', 'Our numbers, as a document.');
    form.append('visibility', 'CONNECTIONS');
    form.append('async_upload', 'true');
    form.append('document', new Blob([pdf], { type: 'application/pdf' }), 'report.pdf');
    const res = await fetch(`${stack.apiUrl}/api/upload_document`, { method: 'POST', headers: { Authorization: `Apikey ${herald.key}` }, body: form });
    const accepted = await res.json() as { request_id: string; platforms: string[] };
    expect([res.status, res.status === 202 ? null : accepted]).toEqual([202, null]);
    expect(accepted.platforms).toEqual(['linkedin']);
    const done = await herald.waitForCompletion(accepted.request_id);
    expect(done.body.results.linkedin.error ?? null).toBeNull();
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'document', results: { linkedin: { success: true, post_id: expect.stringMatching(/^urn:li:/), document: expect.stringMatching(/^urn:li:document:/) } } });
    const post = sandbox.simulators.linkedin.posts().find((p) => p.id === done.body.results.linkedin.post_id)!;
    expect(post).toMatchObject({ text: 'Our numbers, as a document.', visibility: 'CONNECTIONS', content: { media: { id: done.body.results.linkedin.document, title: 'Quarterly report' } } });
    expect(sandbox.simulators.linkedin.documents()).toEqual(expect.arrayContaining([expect.objectContaining({ urn: done.body.results.linkedin.document, status: 'AVAILABLE', contentType: 'application/pdf' })]));

    // Not a document: 400 before anything is sent; another network: platform_not_supported.
    const bad = new FormData();
    bad.append('user', 'pat');
    bad.append('title', 'Not a document');
    bad.append('document', new Blob([Buffer.from('plain text')], { type: 'text/plain' }), 'notes.txt');
    const refused = await fetch(`${stack.apiUrl}/api/upload_document`, { method: 'POST', headers: { Authorization: `Apikey ${herald.key}` }, body: bad });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ success: false, error_code: 'media_type_unsupported' });
    const elsewhere = new FormData();
    elsewhere.append('user', 'pat');
    elsewhere.append('platform[]', 'x');
    elsewhere.append('title', 'Doc to X');
    elsewhere.append('document', new Blob([pdf], { type: 'application/pdf' }), 'report.pdf');
    const notX = await fetch(`${stack.apiUrl}/api/upload_document`, { method: 'POST', headers: { Authorization: `Apikey ${herald.key}` }, body: elsewhere });
    expect(notX.status).toBe(400);
    expect(await notX.json()).toMatchObject({ success: false, error_code: 'platform_not_supported' });
  });

  it('every error body', async () => {
    const cases: Array<[string, Record<string, unknown>, number, string, RegExp?]> = [
      ['/posts/edit', { platform: 'instagram', post_id: '1' }, 400, 'platform_not_supported', /networks that can edit published posts are .*facebook, youtube, linkedin, x,/],
      ['/posts/edit', { platform: 'tiktok', post_id: '1', message: 'x' }, 400, 'platform_not_supported'],
      ['/posts/unpublish', { platform: 'threads', post_id: '1' }, 400, 'platform_not_supported'],
      ['/posts/repost', { platform: 'facebook', post_id: '1' }, 400, 'platform_not_supported', /linkedin, x/],
      ['/posts/edit', { platform: 'facebook', post_id: postOf('facebook') }, 400, 'nothing_to_update', /message/],
      ['/posts/edit', { platform: 'facebook', message: 'no id' }, 400, 'invalid_request', /post_id/],
      ['/posts/edit', { platform: 'facebook', post_id: postOf('facebook'), colour: 'red' }, 400, 'invalid_request', /colour/],
      ['/posts/edit', { platform: 'youtube', post_id: 'abcdefghijk', privacyStatus: 'secret' }, 400, 'invalid_request', /privacyStatus/],
      ['/posts/edit', { platform: 'myspace', post_id: '1', message: 'x' }, 400, 'platform_not_supported'],
      ['/posts/edit', { platform: 'pinterest', post_id: '1', message: 'x' }, 400, 'platform_not_supported'],
      ['/posts/unpublish', { platform: 'wordpress', post_id: '1' }, 400, 'not_connected'],
      ['/posts/action', { action: 'dance', platform: 'x', post_id: '1' }, 400, 'invalid_request', /action/],
      ['/posts/edit', { platform: 'reddit', post_id: '1', message: 'x' }, 503, 'reddit_unavailable'],
    ];
    for (const [route, body, status, code, message] of cases) {
      const res = await api.post(`/api/herald${route}`, { user: 'pat', ...body });
      expect([route, body, res.status, res.body.success, res.body.error_code]).toEqual([route, body, status, false, code]);
      expect(res.headers.get('content-type')).toMatch(/json/);
      if (message) expect(res.body.message).toMatch(message);
    }
    const instagram = await api.post('/api/herald/posts/edit', { user: 'pat', platform: 'instagram', post_id: '1', message: 'x' });
    expect(instagram.body.supported_platforms).toEqual(expect.arrayContaining(['facebook', 'linkedin', 'x', 'youtube', 'google_business', 'telegram', 'discord', 'mastodon', 'hashnode', 'whop']));
    const noProfile = await api.post('/api/herald/posts/edit', { user: 'nobody', platform: 'x', post_id: '1', text: 'x' });
    expect(noProfile).toMatchObject({ status: 404, body: { success: false, error_code: 'PROFILE_NOT_FOUND' } });
    // The network's refusals: an X post past its 30-minute window, a post that is not there.
    const old = await api.post('/api/upload_text', { user: 'pat', 'platform[]': ['x'], title: 'An X post from 31 minutes ago' });
    sandbox.simulators.x.backdateTweet(old.body.results.x.post_id, 31 * 60_000);
    const late = await edit({ platform: 'x', post_id: old.body.results.x.post_id, text: 'Too late' });
    expect(late).toMatchObject({ status: 403, body: { success: false, error_code: 'edit_window_closed', message: expect.stringMatching(/30-minute/) } });
    const missing = await edit({ platform: 'facebook', post_id: `${postOf('facebook').split('_')[0]}_999999`, message: 'x' });
    expect(missing).toMatchObject({ status: 404, body: { success: false, error_code: 'post_not_found' } });
  });

  it('unpublishes on every network; status and history show it', async () => {
    const sims = sandbox.simulators;
    const current = await api.get(`/api/herald/status?request_id=${textUpload.request_id}`);
    expect(current.body.results.x.edit_count).toBe(2);
    for (const p of TEXT) {
      const res = await api.post('/api/herald/posts/unpublish', { user: 'pat', platform: p, post_id: current.body.results[p].post_id });
      expect([p, res.status, res.body]).toEqual([p, 200, expect.objectContaining({ success: true, unpublished: true, request_id: textUpload.request_id })]);
    }
    const yt = await api.post('/api/herald/posts/unpublish', { user: 'pat', platform: 'youtube', post_id: videoUpload.results.youtube!.post_id });
    expect(yt.status).toBe(200);
    expect(sims.facebook.posts().some((p) => p.id === postOf('facebook'))).toBe(false);
    expect(sims.linkedin.posts().some((p) => p.id === postOf('linkedin'))).toBe(false);
    expect(sims.x.tweets().filter((t) => t.text.includes('edit (x)'))).toEqual([]);
    expect(sims.discord.messages().some((m) => m.id === postOf('discord'))).toBe(false);
    expect(sims.telegram.messages().some((m) => String(m.message_id) === postOf('telegram'))).toBe(false);
    expect(sims.mastodon.statuses().some((s) => s.id === postOf('mastodon'))).toBe(false);
    expect(sims.youtube.videos().some((v) => v.id === videoUpload.results.youtube!.post_id)).toBe(false);
    const status = await api.get(`/api/herald/status?request_id=${textUpload.request_id}`);
    for (const p of TEXT) expect([p, status.body.results[p]]).toEqual([p, expect.objectContaining({ unpublished: true, unpublished_at: expect.any(String), success: true })]);
    const history = await api.get(`/api/herald/history?request_id=${videoUpload.request_id}`);
    expect(history.body.history[0].results.youtube).toMatchObject({ unpublished: true });
    // Gone now: a second unpublish is the network's 404.
    const again = await api.post('/api/herald/posts/unpublish', { user: 'pat', platform: 'facebook', post_id: postOf('facebook') });
    expect(again).toMatchObject({ status: 404, body: { success: false, error_code: 'post_not_found' } });
  });
});
