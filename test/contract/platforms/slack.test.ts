/**
 * Slack: the shared platform contract (bot token + channel) against the simulator, and what is
 * Slack's own: the webhook connection, the settings, edit and delete, each failure code.
 */
import { HeraldError, PlatformError } from '../../../core/domain/errors';
import { resolveSettings } from '../../../core/domain/settings';
import type { PlatformAdapter, PublishContext, PublishPost } from '../../../core/ports/platform';
import { postRefOf } from '../../../core/ports/platform';
import { createSlackPlatform, mapSlackFailure } from '../../../adapters/platforms/slack';
import { startSlackSimulator, type SlackSimulator } from '../../../ops/simulators/slack';
import { noMedia } from '../../support/media-access';
import { FIXTURE_TIMEOUT_MS, mediaFixtures, resolvedPost, type MediaFixtures } from '../../support/platform-harness';
import { platformContract, type PlatformHarness } from './shared-contract';

const TIMEOUT_MS = 5000;
let serial = 0;
const unique = (text: string) => `${text} #${++serial}`;

let fx: MediaFixtures;
beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await fx?.close(); });

function settings(adapter: PlatformAdapter, fields: Record<string, unknown> = {}) {
  const r = resolveSettings('slack', adapter.descriptor.settings, fields, { endpoint: 'text', mediaCount: 0 });
  if (r.violations.length) throw new Error(JSON.stringify(r.violations));
  return r.values;
}
const textPost = (adapter: PlatformAdapter, text: string, fields: Record<string, unknown> = {}): PublishPost =>
  ({ kind: 'text', title: text, media: [], settings: settings(adapter, fields) });

interface World { sim: SlackSimulator; adapter: PlatformAdapter; bot: { token: string }; channel: string; webhook: { url: string } }
let world: World | undefined;
const w = () => { if (!world) throw new Error('slack world is not started'); return world; };

async function startWorld(): Promise<World> {
  const sim = await startSlackSimulator();
  const bot = sim.createBot({ name: 'herald' });
  const channel = sim.createChannel({ name: 'announcements' }).id;
  sim.join(channel, bot.token);
  const webhook = sim.createWebhook(channel);
  const adapter = createSlackPlatform({ apiBase: sim.apiBase, webhookBase: sim.webhookBase, timeoutMs: TIMEOUT_MS });
  return { sim, adapter, bot, channel, webhook };
}

const harness: PlatformHarness = {
  name: 'slack',
  async start() { world = await startWorld(); },
  async stop() { await world?.sim.close(); world = undefined; },
  reset: () => w().sim.reset(),
  get adapter() { return w().adapter; },
  connect: () => w().adapter.credentials!.verify({ bot_token: w().bot.token, channel_id: w().channel }),
  publishable: {
    text: () => textPost(w().adapter, unique('Contract announcement')),
    photo: (f) => resolvedPost(w().adapter, 'photo', unique('Contract photos'), f.images.slice(0, 2)),
    video: (f) => resolvedPost(w().adapter, 'video', unique('Contract video'), [f.video]),
  },
  networkHas: async (o) => w().sim.messages(w().channel).some((m) => m.ts === o.postId),
  publishedCount: () => w().sim.messages().length,
  requestCount: () => w().sim.requests.length,
  failures: [
    { mode: 'invalid_auth', arm: () => w().sim.fail('invalid_auth'), expect: { kind: 'auth_expired', reason: 'invalid_auth' } },
    { mode: 'token_revoked', arm: () => w().sim.fail('token_revoked'), expect: { kind: 'auth_expired', reason: 'token_revoked' } },
    { mode: 'not_in_channel', arm: () => w().sim.fail('not_in_channel'), expect: { kind: 'auth_expired', reason: 'not_in_channel' } },
    { mode: 'channel_not_found', arm: () => w().sim.fail('channel_not_found'), expect: { kind: 'auth_expired', reason: 'channel_not_found' } },
    { mode: 'ratelimited', arm: () => w().sim.fail('ratelimited'), expect: { kind: 'rate_limited', retryAfterMs: 3000 } },
    { mode: 'rate_limited', arm: () => w().sim.fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 60_000 } },
    { mode: 'fatal_error', arm: () => w().sim.fail('fatal_error'), expect: { kind: 'transient' } },
    { mode: 'server_error', arm: () => w().sim.fail('server_error'), expect: { kind: 'transient' } },
    { mode: 'malformed', arm: () => w().sim.fail('malformed'), expect: { kind: 'rejected', code: 'unexpected_response' } },
  ],
};

platformContract(harness, () => fx);

describe('slack: its own behaviour', () => {
  let sim: SlackSimulator;
  let adapter: PlatformAdapter;
  let bot: { token: string };
  let channel: string;
  let webhook: { url: string };
  beforeAll(async () => { ({ sim, adapter, bot, channel, webhook } = await startWorld()); });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());

  const ctx = (credentials: Record<string, string>): PublishContext => ({ credentials, idempotencyKey: `idem-${++serial}`, media: noMedia });
  const publish = async (credentials: Record<string, string>, post: PublishPost) => {
    const step = await adapter.publisher!.publish(ctx(credentials), post);
    if (step.kind !== 'done') throw new Error('slack publishes in one step');
    return step.outcome;
  };
  const rejection = async (p: Promise<unknown>) => { try { await p; } catch (err) { return err as Error; } throw new Error('expected a rejection'); };

  it('connects a bot: auth.test then conversations.info, identity of the channel, no message posted', async () => {
    const v = await adapter.credentials!.verify({ bot_token: bot.token, channel: channel });
    expect(v.identity).toEqual({ platformUserId: `${sim.teamId}/${channel}`, handle: '#announcements', displayName: '#announcements (Herald Sandbox)', avatarUrl: '' });
    expect(v.credentials).toMatchObject({ mode: 'bot', bot_token: bot.token, channel_id: channel, team_id: sim.teamId });
    expect(sim.requests.map((r) => r.path)).toEqual(['/api/auth.test', '/api/conversations.info']);
    expect(sim.messages()).toEqual([]);
  });

  it('refuses a wrong token, an unknown channel and an archived channel, and missing or mixed fields, with what to fix', async () => {
    await expect(adapter.credentials!.verify({ bot_token: 'xoxb-1-2-notavalidtokenatall', channel_id: channel })).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'invalid_auth' } });
    await expect(adapter.credentials!.verify({ bot_token: bot.token, channel_id: 'C0000000000' })).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'channel_not_found' } });
    const archived = sim.createChannel({ name: 'old', archived: true }).id;
    await expect(adapter.credentials!.verify({ bot_token: bot.token, channel_id: archived })).rejects.toBeInstanceOf(HeraldError);
    await expect(adapter.credentials!.verify({})).rejects.toMatchObject({ details: { field: 'bot_token' } });
    await expect(adapter.credentials!.verify({ bot_token: bot.token, channel_id: channel, webhook_url: webhook.url })).rejects.toMatchObject({ details: { field: 'webhook_url' } });
    await expect(adapter.credentials!.verify({ bot_token: 'not-a-token', channel_id: channel })).rejects.toMatchObject({ details: { field: 'bot_token' } });
  });

  it('connects an incoming webhook by probing it (400 no_text), posts text to it, and refuses edits on it', async () => {
    const v = await adapter.credentials!.verify({ webhook_url: webhook.url, name: 'Team feed' });
    expect(v.identity.displayName).toBe('Team feed');
    expect(v.credentials.mode).toBe('webhook');
    expect(sim.messages()).toEqual([]);
    const outcome = await publish(v.credentials, textPost(adapter, 'Hello from a webhook'));
    expect(outcome.postId).toMatch(/^webhook:/);
    expect(sim.messages(channel)).toEqual([expect.objectContaining({ text: 'Hello from a webhook', via: 'webhook' })]);
    await expect(adapter.postEditor!.edit!(ctx(v.credentials), postRefOf(outcome), { text: 'x' })).rejects.toMatchObject({ failure: { kind: 'unsupported' } });
    // Any other host is refused without a request; a revoked webhook fails as auth_expired.
    const before = sim.requests.length;
    await expect(adapter.credentials!.verify({ webhook_url: 'https://evil.example/services/T1234567/B1234567/abcdefghijkl' })).rejects.toMatchObject({ details: { field: 'webhook_url' } });
    expect(sim.requests.length).toBe(before);
    await expect(adapter.credentials!.verify({ webhook_url: `${sim.webhookBase}/services/T1234567/B1234567/abcdefghijkl` })).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'no_service' } });
    sim.fail('ratelimited');
    const limited = await rejection(publish(v.credentials, textPost(adapter, 'Too fast')));
    expect(limited).toMatchObject({ failure: { kind: 'rate_limited', retryAfterMs: 3000 } });
    expect(limited.message).not.toContain(webhook.url.split('/').pop());
  });

  it('sends its settings: unfurl, mrkdwn, thread replies; the link is the permalink', async () => {
    const { credentials } = await adapter.credentials!.verify({ bot_token: bot.token, channel_id: channel });
    const parent = await publish(credentials, textPost(adapter, 'Parent'));
    expect(parent.url).toBe(`https://herald-sandbox.slack.com/archives/${channel}/p${parent.postId.replace('.', '')}`);
    sim.requests.length = 0;
    await publish(credentials, textPost(adapter, 'Reply', { slack_thread_ts: parent.postId, slack_unfurl_links: 'true', slack_mrkdwn: 'false' }));
    const sent = sim.requests.find((r) => r.path === '/api/chat.postMessage')!.body;
    expect(sent).toEqual({ channel, text: 'Reply', unfurl_links: true, unfurl_media: true, mrkdwn: false, thread_ts: parent.postId, reply_broadcast: false });
    expect(resolveSettings('slack', adapter.descriptor.settings, { slack_thread_ts: 'yesterday' }, { endpoint: 'text', mediaCount: 0 }).violations)
      .toEqual([expect.objectContaining({ field: 'slack_thread_ts' })]);
  });

  it('edits with chat.update and deletes with chat.delete', async () => {
    const { credentials } = await adapter.credentials!.verify({ bot_token: bot.token, channel_id: channel });
    const outcome = await publish(credentials, textPost(adapter, 'Typo here'));
    const ref = await adapter.postEditor!.edit!(ctx(credentials), postRefOf(outcome), { text: 'Fixed here' });
    expect(ref.id).toBe(outcome.postId);
    expect(sim.messages(channel)).toEqual([expect.objectContaining({ ts: outcome.postId, text: 'Fixed here', edited: expect.any(Object) })]);
    await adapter.postEditor!.unpublish!(ctx(credentials), ref);
    expect(sim.messages(channel)).toEqual([]);
    await expect(adapter.postEditor!.unpublish!(ctx(credentials), ref)).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'message_not_found' } });
  });

  it('a token revoked on Slack fails publishing as auth_expired', async () => {
    const other = sim.createBot({ name: 'other' });
    sim.join(channel, other.token);
    const { credentials } = await adapter.credentials!.verify({ bot_token: other.token, channel_id: channel });
    sim.revokeToken(other.token);
    await expect(publish(credentials, textPost(adapter, 'Gone'))).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_revoked' } });
  });

  describe('photos and video through files upload v2', () => {
    const mediaCtx = (credentials: Record<string, string>): PublishContext => ({ credentials, idempotencyKey: `idem-${++serial}`, media: fx.access });
    const publishMedia = async (credentials: Record<string, string>, post: PublishPost) => {
      const step = await adapter.publisher!.publish(mediaCtx(credentials), post);
      if (step.kind !== 'done') throw new Error('slack publishes in one step');
      return step.outcome;
    };
    const botCredentials = async (token = bot.token) => (await adapter.credentials!.verify({ bot_token: token, channel_id: channel })).credentials;

    it('shares photos in one message: getUploadURLExternal per file, the bytes, then completeUploadExternal with the text', async () => {
      const credentials = await botCredentials();
      sim.requests.length = 0;
      const photos = fx.images.slice(0, 3);
      const outcome = await publishMedia(credentials, resolvedPost(adapter, 'photo', 'Three photos', photos));
      expect(sim.requests.map((r) => r.path.replace(/\/upload\/v1\/.*/, '/upload/v1/…'))).toEqual([
        '/api/files.getUploadURLExternal', '/upload/v1/…', '/api/files.getUploadURLExternal', '/upload/v1/…', '/api/files.getUploadURLExternal', '/upload/v1/…', '/api/files.completeUploadExternal',
      ]);
      const files = sim.files();
      expect(files.map((f) => f.size)).toEqual(photos.map((p) => p.size));
      expect(files.every((f) => f.length === f.size && f.channel === channel && f.mimetype === 'image/jpeg')).toBe(true);
      const [message] = sim.messages(channel);
      expect(message).toMatchObject({ ts: outcome.postId, text: 'Three photos', files: files.map((f) => f.id) });
      expect(outcome.url).toContain(files[0]!.id);
      expect(outcome.extra).toEqual({ channel_id: channel, slack_file_ids: files.map((f) => f.id) });
      const complete = sim.requests.find((r) => r.path === '/api/files.completeUploadExternal')!.body;
      expect(complete).toMatchObject({ channel_id: channel, initial_comment: 'Three photos', files: files.map((f) => ({ id: f.id, title: f.filename })) });
      // The message is an ordinary one: chat.update edits its text.
      await adapter.postEditor!.edit!(ctx(credentials), postRefOf(outcome), { text: 'Three photos, fixed' });
      expect(sim.messages(channel)[0]!.text).toBe('Three photos, fixed');
    });

    it('shares one video', async () => {
      const credentials = await botCredentials();
      const outcome = await publishMedia(credentials, resolvedPost(adapter, 'video', 'A clip', [fx.video]));
      expect(sim.files()).toEqual([expect.objectContaining({ size: fx.video.size, length: fx.video.size, mimetype: 'video/mp4', channel, ts: outcome.postId })]);
    });

    it('refuses media for a webhook connection without a request, and wrong counts before uploading', async () => {
      const { credentials } = await adapter.credentials!.verify({ webhook_url: webhook.url });
      const before = sim.requests.length;
      const err = await rejection(publishMedia(credentials, resolvedPost(adapter, 'photo', 'x', [fx.images[0]!])));
      expect(err).toMatchObject({ failure: { kind: 'unsupported' } });
      expect(err.message).toMatch(/bot token/);
      expect(sim.requests.length).toBe(before);
      const botCreds = await botCredentials();
      const start = sim.requests.length;
      const eleven = Array.from({ length: 11 }, (_, i) => fx.images[i % fx.images.length]!);
      await expect(publishMedia(botCreds, { kind: 'photo', title: 'x', media: eleven, settings: {} })).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'too_many_photos' } });
      await expect(publishMedia(botCreds, { kind: 'video', title: 'x', media: [fx.video, fx.video], settings: {} })).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'media_required' } });
      expect(sim.requests.length).toBe(start);
      expect(sim.files()).toEqual([]);
    });

    it('fails as Slack does: missing files:write scope, not in channel, unknown channel', async () => {
      const noFiles = sim.createBot({ name: 'nofiles', scopes: ['chat:write', 'channels:read'] });
      sim.join(channel, noFiles.token);
      const scoped = await rejection(publishMedia(await botCredentials(noFiles.token), resolvedPost(adapter, 'photo', 'x', [fx.images[0]!])));
      expect(scoped).toMatchObject({ failure: { kind: 'auth_expired', reason: 'missing_scope' } });
      expect(sim.requests.at(-1)!.path).toBe('/api/files.getUploadURLExternal');
      const outsider = sim.createBot({ name: 'outsider' });
      const elsewhere = sim.createChannel({ name: 'elsewhere', members: [] }).id;
      const creds = { mode: 'bot', bot_token: outsider.token, channel_id: elsewhere };
      await expect(publishMedia(creds, resolvedPost(adapter, 'photo', 'x', [fx.images[0]!]))).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'not_in_channel' } });
      await expect(publishMedia({ ...creds, channel_id: 'C0000000000' }, resolvedPost(adapter, 'photo', 'x', [fx.images[0]!]))).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'channel_not_found' } });
      expect(sim.messages()).toEqual([]);
    });

    it('the simulator refuses a length mismatch and an unknown file id on completeUploadExternal', async () => {
      const call = async (method: string, body: Record<string, unknown>) => (await fetch(`${sim.apiBase}/${method}`, {
        method: 'POST', headers: { authorization: `Bearer ${bot.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
      })).json() as Promise<Record<string, unknown>>;
      const got = await call('files.getUploadURLExternal', { filename: 'a.jpg', length: 10 });
      expect(got).toMatchObject({ ok: true, file_id: expect.stringMatching(/^F/), upload_url: expect.any(String) });
      const up = await fetch(String(got.upload_url), { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: new Uint8Array(7) });
      expect(await up.text()).toBe('OK - 7');
      expect(await call('files.completeUploadExternal', { files: [{ id: got.file_id }], channel_id: channel })).toEqual({ ok: false, error: 'file_upload_size_mismatch' });
      expect(await call('files.completeUploadExternal', { files: [{ id: 'F000NOPE' }], channel_id: channel })).toEqual({ ok: false, error: 'file_not_found' });
      expect(await call('files.getUploadURLExternal', { filename: 'a.jpg' })).toEqual({ ok: false, error: 'invalid_arguments' });
      expect(mapSlackFailure({ kind: 'response', status: 200, headers: new Headers(), body: { ok: false, error: 'file_upload_size_mismatch' } }, { timeoutMs: 1000, now: new Date() }).failure)
        .toEqual({ kind: 'invalid_content', code: 'file_size_mismatch' });
    });
  });

  it('maps each Slack error code, never by message text', () => {
    const body = (error: string, status = 200) => ({ kind: 'response' as const, status, headers: new Headers(), body: { ok: false, error } });
    expect(mapSlackFailure(body('msg_too_long'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'invalid_content', code: 'text_too_long' });
    expect(mapSlackFailure(body('missing_scope'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'auth_expired', reason: 'missing_scope' });
    expect(mapSlackFailure(body('is_archived'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'auth_expired', reason: 'is_archived' });
    expect(mapSlackFailure(body('internal_error'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'transient' });
    expect(mapSlackFailure(body('something_new'), { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'rejected', code: 'something_new' });
    expect(mapSlackFailure({ kind: 'response', status: 429, headers: new Headers({ 'retry-after': '30' }), body: { ok: false, error: 'ratelimited' } }, { timeoutMs: 1000, now: new Date() }).failure)
      .toEqual({ kind: 'rate_limited', retryAfterMs: 30_000 });
    expect(mapSlackFailure({ kind: 'webhook', status: 410, headers: new Headers(), text: 'channel_is_archived' }, { timeoutMs: 1000, now: new Date() }).failure).toEqual({ kind: 'auth_expired', reason: 'channel_is_archived' });
    expect(mapSlackFailure({ kind: 'no_response', reason: 'timeout' }, { timeoutMs: 1000, now: new Date() })).toBeInstanceOf(PlatformError);
  });
});
