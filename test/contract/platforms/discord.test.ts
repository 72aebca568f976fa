import { noMedia } from '../../support/media-access';
import { HeraldError, PlatformError } from '../../../core/domain/errors';
import type { PlatformAdapter, PublishContext } from '../../../core/ports/platform';
import { textLengthOf } from '../../../core/ports/platform';
import { createDiscordPlatform, mapDiscordFailure } from '../../../adapters/platforms/discord';
import { startDiscordSimulator, type DiscordSimulator } from '../../../ops/simulators/discord';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaRef } from '../../../core/ports/platform';
import { mediaFixtures, FIXTURE_TIMEOUT_MS, type MediaFixtures } from '../../support/platform-harness';

let sim: DiscordSimulator;
let discord: PlatformAdapter;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  sim = await startDiscordSimulator();
  discord = createDiscordPlatform({ apiBase: sim.baseUrl, timeoutMs: 5000 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

function hook(name = 'Announcements') {
  return sim.createWebhook({ name, channelId: '1200000000000000001', guildId: '1100000000000000001' });
}

function ctxFor(h: { id: string; token: string }, extra: Partial<PublishContext> = {}): PublishContext {
  return {
    credentials: { webhook_id: h.id, webhook_token: h.token, guild_id: '1100000000000000001', channel_id: '1200000000000000001' },
    idempotencyKey: 'idem-1',
    media: noMedia,
    ...extra,
  };
}

const publish = async (ctx: PublishContext, text: string, adapter = discord) => {
  const step = await adapter.publisher!.publish(ctx, { kind: 'text', title: text, media: [], settings: {} });
  if (step.kind !== 'done') throw new Error('a text post finishes in one step');
  return step.outcome;
};
const verify = (input: Record<string, unknown>) => discord.credentials!.verify(input);

describe('descriptor', () => {
  it('declares a credentials network with a 2000-character text limit, 10 photos or a video', () => {
    expect(discord.descriptor).toMatchObject({
      id: 'discord', connect: 'credentials', endpoints: ['text', 'photo', 'video'],
      limits: { textMaxChars: 2000, photo: { maxCount: 10, maxBytes: 10 * 1024 * 1024 }, video: { maxBytes: 10 * 1024 * 1024 } },
    });
  });

  it('counts text as the publisher does: code points, not UTF-16 units', () => {
    expect(textLengthOf(discord.descriptor, '😀'.repeat(2000))).toBe(2000);
  });

  it('declares the credential fields the connector reads (webhook_url required, name optional)', () => {
    expect(discord.descriptor.credentialFields!.fields.map((f) => [f.name, f.type, f.required === true])).toEqual([
      ['webhook_url', 'url', true],
      ['name', 'string', false],
    ]);
  });
});

describe('verify', () => {
  it('checks the webhook with a GET through apiBase and returns its identity and credentials', async () => {
    const h = hook();
    const verified = await verify({ webhook_url: h.url });
    expect(verified).toEqual({
      identity: { platformUserId: h.id, handle: 'Announcements', displayName: 'Announcements', avatarUrl: '' },
      credentials: { webhook_id: h.id, webhook_token: h.token, guild_id: '1100000000000000001', channel_id: '1200000000000000001' },
    });
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v10/webhooks/${h.id}/${h.token}`]);
  });

  it('uses the given name as display name, and reads a discord.com URL but asks only apiBase', async () => {
    const h = hook('Releases');
    const verified = await verify({ webhook_url: `https://discord.com/api/webhooks/${h.id}/${h.token}`, name: 'Release notes' });
    expect(verified.identity).toMatchObject({ handle: 'Releases', displayName: 'Release notes' });
    expect(sim.requests).toHaveLength(1);
  });

  it('builds the avatar URL from the webhook avatar hash', async () => {
    const h = sim.createWebhook({ name: 'With avatar', avatar: 'abc123' });
    const verified = await verify({ webhook_url: h.url });
    expect(verified.identity.avatarUrl).toBe(`https://cdn.discordapp.com/avatars/${h.id}/abc123.png`);
  });

  it.each([
    ['another host', (id: string, token: string) => `https://evil.example/api/webhooks/${id}/${token}`],
    ['plain http on discord.com', (id: string, token: string) => `http://discord.com/api/webhooks/${id}/${token}`],
    ['a non-webhook path', (id: string) => `https://discord.com/api/channels/${id}/messages`],
    ['a non-numeric id', (_id: string, token: string) => `https://discord.com/api/webhooks/abc/${token}`],
    ['not a URL', () => 'discord webhook please'],
  ])('rejects %s as invalid_input without calling Discord', async (_label, url) => {
    const h = hook();
    const err = await rejection(verify({ webhook_url: url(h.id, h.token) }));
    expect(err).toBeInstanceOf(HeraldError);
    expect(err).toMatchObject({ kind: 'invalid_input' });
    expect(err.message).toMatch(/https:\/\/discord\.com\/api\/webhooks\/<id>\/<token>/);
    expect(err.message).not.toContain(h.token);
    expect(sim.requests).toHaveLength(0);
  });

  it('rejects a missing webhook_url as invalid_input, saying what to send', async () => {
    const err = await rejection(verify({}));
    expect(err).toMatchObject({ kind: 'invalid_input', details: { field: 'webhook_url' } });
    expect(err.message).toMatch(/^webhook_url is required\. .*https:\/\/discord\.com\/api\/webhooks\/<id>\/<token>/);
  });

  it('rejects a blank name as invalid_input without calling Discord', async () => {
    const h = hook();
    await expect(verify({ webhook_url: h.url, name: '   ' })).rejects.toMatchObject({ kind: 'invalid_input', details: { field: 'name' } });
    expect(sim.requests).toHaveLength(0);
  });

  it('maps an unknown webhook to auth_expired (webhook_deleted)', async () => {
    const err = await rejection(verify({ webhook_url: `${sim.origin}/api/webhooks/123456789012345678/notarealtoken` }));
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ failure: { kind: 'auth_expired', reason: 'webhook_deleted' }, upstream: { status: 404, code: 10015 } });
  });

  it('maps a wrong token for a known webhook to auth_expired (token_revoked)', async () => {
    const h = hook();
    await expect(verify({ webhook_url: `${sim.origin}/api/webhooks/${h.id}/wrong-token` }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_revoked' }, upstream: { status: 401, code: 50027 } });
  });
});

describe('publish (text)', () => {
  it('executes the webhook with wait=true and returns the created message id and its URL', async () => {
    const h = hook();
    const text = 'Release 1.2 is out @everyone — notes: https://example.com/notes';
    const outcome = await publish(ctxFor(h), text);

    const stored = sim.messages(h.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.content).toBe(text);
    expect(outcome).toEqual({
      postId: stored[0]!.id,
      url: `https://discord.com/channels/1100000000000000001/1200000000000000001/${stored[0]!.id}`,
      warnings: [],
    });
    expect(outcome.postId).toMatch(/^\d{17,20}$/);

    expect(sim.requests).toHaveLength(1);
    const [req] = sim.requests;
    expect(req).toMatchObject({ method: 'POST', path: `/api/v10/webhooks/${h.id}/${h.token}`, query: { wait: 'true' } });
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toEqual({ content: text, allowed_mentions: { parse: [] } });
  });

  it('uses @me in the URL when the webhook has no guild', async () => {
    const h = hook();
    const outcome = await publish({ ...ctxFor(h), credentials: { ...ctxFor(h).credentials, guild_id: '' } }, 'hello');
    expect(outcome.url).toBe(`https://discord.com/channels/@me/1200000000000000001/${outcome.postId}`);
  });

  it('accepts exactly 2000 characters (counted as characters, not UTF-16 units)', async () => {
    const h = hook();
    const text = '😀'.repeat(2000);
    await publish(ctxFor(h), text);
    expect(sim.messages(h.id)[0]!.content).toBe(text);
  });

  it('refuses 2001 characters as invalid_content without sending anything', async () => {
    const h = hook();
    const err = await rejection(publish(ctxFor(h), 'x'.repeat(2001)));
    expect(err).toMatchObject({ failure: { kind: 'invalid_content', code: 'text_too_long' } });
    expect(err.message).toMatch(/2000 characters/);
    expect(sim.requests).toHaveLength(0);
  });

  it('refuses an empty text as invalid_content without sending anything', async () => {
    const h = hook();
    await expect(publish(ctxFor(h), '   ')).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'text_empty' } });
    expect(sim.requests).toHaveLength(0);
  });

  it('maps a deleted webhook to auth_expired (webhook_deleted)', async () => {
    const h = hook();
    sim.deleteWebhook(h.id);
    await expect(publish(ctxFor(h), 'hello')).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'webhook_deleted' } });
  });
});

describe('failure modes', () => {
  it('unknown_webhook → auth_expired, nothing stored', async () => {
    const h = hook();
    sim.fail('unknown_webhook');
    await expect(publish(ctxFor(h), 'hello')).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'webhook_deleted' } });
    expect(sim.messages()).toHaveLength(0);
  });

  it('rate_limited → rate_limited with retry_after from the body (1.5 s → 1500 ms)', async () => {
    const h = hook();
    sim.fail('rate_limited');
    await expect(publish(ctxFor(h), 'hello'))
      .rejects.toMatchObject({ failure: { kind: 'rate_limited', retryAfterMs: 1500 }, upstream: { status: 429 } });
    expect(sim.messages()).toHaveLength(0);
  });

  it('reads a Retry-After date against the injected clock when the body has no retry_after', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const headers = new Headers({ 'retry-after': new Date(now.getTime() + 7000).toUTCString() });
    const err = mapDiscordFailure({ kind: 'response', status: 429, headers, body: { message: 'You are being rate limited.' } }, { timeoutMs: 1, now });
    expect(err.failure).toEqual({ kind: 'rate_limited', retryAfterMs: 7000 });
  });

  it.each(['server_error', 'bad_gateway'] as const)('%s → transient, nothing stored', async (mode) => {
    const h = hook();
    sim.fail(mode);
    await expect(publish(ctxFor(h), 'hello')).rejects.toMatchObject({ failure: { kind: 'transient' } });
    expect(sim.messages()).toHaveLength(0);
  });

  it('failures are consumed: the next call succeeds', async () => {
    const h = hook();
    sim.fail('server_error', 1);
    await expect(publish(ctxFor(h), 'first')).rejects.toMatchObject({ failure: { kind: 'transient' } });
    await publish(ctxFor(h), 'second');
    expect(sim.messages(h.id).map((m) => m.content)).toEqual(['second']);
  });

  it('failures can be queued over the HTTP control surface', async () => {
    const h = hook();
    const res = await fetch(`${sim.origin}/__sim/failures`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'rate_limited', times: 2 }),
    });
    expect(res.status).toBe(200);
    expect(await (await fetch(`${sim.origin}/__sim/state`)).json()).toMatchObject({ failures: ['rate_limited', 'rate_limited'] });
    await expect(publish(ctxFor(h), 'a')).rejects.toMatchObject({ failure: { kind: 'rate_limited' } });
    await expect(publish(ctxFor(h), 'b')).rejects.toMatchObject({ failure: { kind: 'rate_limited' } });
    await publish(ctxFor(h), 'c');
    expect(sim.messages(h.id).map((m) => m.content)).toEqual(['c']);
  });

  it('error messages never contain the webhook token', async () => {
    const h = hook();
    for (const mode of ['unknown_webhook', 'rate_limited', 'server_error', 'bad_gateway'] as const) {
      sim.fail(mode);
      const err = await rejection(publish(ctxFor(h), 'hello'));
      expect(err.message).not.toContain(h.token);
    }
  });
});

describe('latency and aborts', () => {
  it('a slow answer within the timeout still publishes', async () => {
    const h = hook();
    sim.setLatency(150);
    await publish(ctxFor(h), 'slow but fine');
    expect(sim.messages(h.id)).toHaveLength(1);
  });

  it('a timeout is transient with an unknown outcome, and the dropped request stores nothing', async () => {
    const h = hook();
    const impatient = createDiscordPlatform({ apiBase: sim.baseUrl, timeoutMs: 100 });
    sim.setLatency(400);
    const err = await rejection(publish(ctxFor(h), 'never arrives', impatient));
    expect(err).toMatchObject({ failure: { kind: 'transient' } });
    expect(err.message).toMatch(/100 ms.*outcome is unknown/);
    expect(err.message).not.toContain(h.token);
    await sleep(600); // past the simulator's latency: it would have stored by now had it not dropped the request
    expect(sim.requests).toHaveLength(1);
    expect(sim.messages()).toHaveLength(0);
  });

  it("the caller's abort signal is transient too", async () => {
    const h = hook();
    sim.setLatency(400);
    const err = await rejection(publish(ctxFor(h, { signal: AbortSignal.timeout(50) }), 'cancelled'));
    expect(err).toMatchObject({ failure: { kind: 'transient' } });
    expect(err.message).toMatch(/cancelled.*outcome is unknown/);
    await sleep(600);
    expect(sim.messages()).toHaveLength(0);
  });

  it('a refused connection is transient', async () => {
    const closed = await startDiscordSimulator();
    const base = closed.baseUrl;
    await closed.close();
    const h = hook();
    await expect(publish(ctxFor(h), 'hello', createDiscordPlatform({ apiBase: base })))
      .rejects.toMatchObject({ failure: { kind: 'transient' } });
  });
});

describe('simulator wire format', () => {
  it('answers 2001 characters with 50035 Invalid Form Body like Discord', async () => {
    const h = hook();
    const res = await fetch(`${h.url}?wait=true`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'x'.repeat(2001) }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } },
    });
  });

  it('answers an empty message with 50006', async () => {
    const h = hook();
    const res = await fetch(h.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Cannot send an empty message', code: 50006 });
  });

  it('answers 204 without wait, and still stores the message', async () => {
    const h = hook();
    const res = await fetch(h.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'no wait' }) });
    expect(res.status).toBe(204);
    expect(sim.messages(h.id).map((m) => m.content)).toEqual(['no wait']);
  });

  it('accepts multipart with payload_json and files[n]', async () => {
    const h = hook();
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ content: 'with a file', attachments: [{ id: 0, filename: 'a.txt' }] }));
    form.append('files[0]', new Blob(['hello file']), 'a.txt');
    const res = await fetch(`${h.url}?wait=true`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    const message = (await res.json()) as { content: string; attachments: Array<{ filename: string; size: number }> };
    expect(message.content).toBe('with a file');
    expect(message.attachments).toMatchObject([{ filename: 'a.txt', size: 10 }]);
  });

  it('sends Discord rate-limit headers with a 429', async () => {
    const h = hook();
    sim.fail('rate_limited');
    const res = await fetch(h.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'x' }) });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await res.json()).toEqual({ message: 'You are being rate limited.', retry_after: 1.5, global: false });
  });

  it('hands out the same webhook ids and tokens for the same seed', async () => {
    const a = await startDiscordSimulator({ seed: 'fixed' });
    const b = await startDiscordSimulator({ seed: 'fixed' });
    try {
      const ha = a.createWebhook({ name: 'x' });
      const hb = b.createWebhook({ name: 'x' });
      expect({ id: ha.id, token: ha.token }).toEqual({ id: hb.id, token: hb.token });
      expect(ha.token).toMatch(/^[\w-]{68}$/);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('publish (photos and video)', () => {
  let fx: MediaFixtures;
  beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
  afterAll(async () => { await fx?.close(); });

  const settings = (kind: 'photo' | 'video', fields: Record<string, unknown>, count: number) => {
    const r = resolveSettings('discord', discord.descriptor.settings, fields, { endpoint: kind, mediaCount: count });
    if (r.violations.length) throw new Error(JSON.stringify(r.violations));
    return r.values;
  };
  const publishMedia = async (h: { id: string; token: string }, kind: 'photo' | 'video', title: string, media: MediaRef[], fields: Record<string, unknown> = {}) => {
    const step = await discord.publisher!.publish(ctxFor(h, { media: fx.access }), { kind, title, media, settings: settings(kind, fields, media.length) });
    if (step.kind !== 'done') throw new Error('a Discord post finishes in one step');
    return step.outcome;
  };

  it('sends photos as multipart payload_json + files[n] with alt text, spoiler names and flags', async () => {
    const h = hook();
    const outcome = await publishMedia(h, 'photo', 'Three photos', fx.images.slice(0, 3), {
      discord_alt_text: 'first||second', discord_spoiler: 'true', discord_silent: true, discord_username: 'Release bot',
    });
    const [message] = sim.messages(h.id);
    expect(message).toMatchObject({ id: outcome.postId, content: 'Three photos', flags: 1 << 12, author: { username: 'Release bot' } });
    expect(message!.attachments.map((a) => [a.filename.startsWith('SPOILER_'), a.content_type, a.description])).toEqual([
      [true, 'image/jpeg', 'first'], [true, 'image/jpeg', 'second'], [true, 'image/jpeg', undefined],
    ]);
    const req = sim.requests.at(-1)!;
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect((req.body as { files: Array<{ name: string }> }).files.map((f) => f.name)).toEqual(['files[0]', 'files[1]', 'files[2]']);
  });

  it('sends a video as one attachment, with or without text', async () => {
    const h = hook();
    const outcome = await publishMedia(h, 'video', '', [fx.video]);
    const [message] = sim.messages(h.id);
    expect(message).toMatchObject({ id: outcome.postId, content: '' });
    expect(message!.attachments).toEqual([expect.objectContaining({ content_type: 'video/mp4', size: fx.video.size })]);
  });

  it('refuses 11 photos and attachments over 10 MiB before sending anything', async () => {
    const h = hook();
    const many = Array.from({ length: 11 }, (_, i) => fx.images[i % fx.images.length]!);
    await expect(discord.publisher!.publish(ctxFor(h, { media: fx.access }), { kind: 'photo', title: 'x', media: many, settings: {} }))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'too_many_photos' } });
    const big = { ...fx.images[0]!, size: 11 * 1024 * 1024 };
    await expect(discord.publisher!.publish(ctxFor(h, { media: fx.access }), { kind: 'photo', title: 'x', media: [big], settings: {} }))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'payload_too_large' } });
    expect(sim.requests).toHaveLength(0);
  });

  it('refuses a webhook username with "discord" in it at intake', () => {
    const r = resolveSettings('discord', discord.descriptor.settings, { discord_username: 'My Discord bot' }, { endpoint: 'photo', mediaCount: 1 });
    expect(r.violations).toEqual([expect.objectContaining({ field: 'discord_username' })]);
  });

  it('the simulator answers 413 / 40005 past the upload limit and 50035 for an attachment without its file', async () => {
    const h = hook();
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ content: 'big', attachments: [{ id: 0, filename: 'a.bin' }] }));
    form.append('files[0]', new Blob([Buffer.alloc(10 * 1024 * 1024 + 1)]), 'a.bin');
    const res = await fetch(`${sim.baseUrl}/webhooks/${h.id}/${h.token}?wait=true`, { method: 'POST', body: form });
    expect([res.status, (await res.json() as { code: number }).code]).toEqual([413, 40005]);
    const err = await rejection(discord.publisher!.publish(ctxFor(h, { media: fx.access }), { kind: 'photo', title: 'ok', media: [fx.images[0]!], settings: {} }).then(async () => {
      const missing = new FormData();
      missing.append('payload_json', JSON.stringify({ content: 'x', attachments: [{ id: 3, filename: 'a.jpg' }] }));
      const r = await fetch(`${sim.baseUrl}/webhooks/${h.id}/${h.token}?wait=true`, { method: 'POST', body: missing });
      throw Object.assign(new Error('done'), { status: r.status, body: await r.json() });
    }));
    expect(err).toMatchObject({ status: 400, body: { code: 50035 } });
    expect(mapDiscordFailure({ kind: 'response', status: 413, headers: new Headers(), body: { code: 40005, message: 'Request entity too large' } }, { timeoutMs: 1000, now: new Date() }))
      .toMatchObject({ failure: { kind: 'invalid_content', code: 'payload_too_large' } });
  });
});

describe('edit and delete', () => {
  it('edits the message text through the webhook (Edit Webhook Message) and deletes it', async () => {
    const h = hook();
    const outcome = await publish(ctxFor(h), 'Before');
    const edited = await discord.postEditor!.edit!(ctxFor(h), { id: outcome.postId, url: outcome.url! }, { text: 'After' });
    expect(edited).toEqual({ id: outcome.postId, url: outcome.url });
    expect(sim.messages(h.id)[0]).toMatchObject({ content: 'After', edited_timestamp: expect.any(String) });
    expect(sim.requests.at(-1)).toMatchObject({ method: 'PATCH', path: `/api/v10/webhooks/${h.id}/${h.token}/messages/${outcome.postId}` });
    await discord.postEditor!.unpublish!(ctxFor(h), { id: outcome.postId });
    expect(sim.messages(h.id)).toHaveLength(0);
    await expect(discord.postEditor!.unpublish!(ctxFor(h), { id: outcome.postId })).rejects.toMatchObject({ failure: { kind: 'rejected' } });
    await expect(discord.postEditor!.edit!(ctxFor(h), { id: outcome.postId }, { text: 'x'.repeat(2001) })).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'text_too_long' } });
  });
});

describe('forum channels', () => {
  it('a forum webhook needs discord_thread_name (a new thread per post); a text channel refuses one', async () => {
    const forum = sim.createWebhook({ name: 'Forum', channelType: 'forum', guildId: '1100000000000000001' });
    const post = (h: { id: string; token: string }, settings: Record<string, unknown>) =>
      discord.publisher!.publish(ctxFor(h), { kind: 'text', title: 'Thread opener', media: [], settings });
    await expect(post(forum, {})).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'discord_forum_thread' } });
    const step = await post(forum, { discord_thread_name: 'Release 1.2' });
    const [message] = sim.messages(forum.id);
    expect(step).toMatchObject({ kind: 'done', outcome: { postId: message!.id } });
    // The message lives in the new thread: its channel is the thread's.
    expect(message!.channel_id).not.toBe(sim.webhooks().find((w) => w.id === forum.id)!.channelId);
    const text = hook();
    await expect(post(text, { discord_thread_name: 'Nope' })).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'discord_forum_thread' } });
  });
});
