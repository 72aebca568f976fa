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
import { FIXTURE_TIMEOUT_MS, mediaFixtures, type MediaFixtures } from '../../support/platform-harness';
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
  publishable: { text: () => textPost(w().adapter, unique('Contract announcement')) },
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

  it('maps each Slack error code, never by message text', () => {
    const body = (error: string, status = 200) => ({ kind: 'response' as const, status, headers: new Headers(), body: { ok: false, error } });
    expect(mapSlackFailure(body('msg_too_long'), 1000).failure).toEqual({ kind: 'invalid_content', code: 'text_too_long' });
    expect(mapSlackFailure(body('missing_scope'), 1000).failure).toEqual({ kind: 'auth_expired', reason: 'missing_scope' });
    expect(mapSlackFailure(body('is_archived'), 1000).failure).toEqual({ kind: 'auth_expired', reason: 'is_archived' });
    expect(mapSlackFailure(body('internal_error'), 1000).failure).toEqual({ kind: 'transient' });
    expect(mapSlackFailure(body('something_new'), 1000).failure).toEqual({ kind: 'rejected', code: 'something_new' });
    expect(mapSlackFailure({ kind: 'response', status: 429, headers: new Headers({ 'retry-after': '30' }), body: { ok: false, error: 'ratelimited' } }, 1000).failure)
      .toEqual({ kind: 'rate_limited', retryAfterMs: 30_000 });
    expect(mapSlackFailure({ kind: 'webhook', status: 410, headers: new Headers(), text: 'channel_is_archived' }, 1000).failure).toEqual({ kind: 'auth_expired', reason: 'channel_is_archived' });
    expect(mapSlackFailure({ kind: 'no_response', reason: 'timeout' }, 1000)).toBeInstanceOf(PlatformError);
  });
});
