/**
 * Nostr: the shared platform contract against two simulated relays, and what is Nostr's own: keys as
 * nsec or hex, signatures the relays verify, per-relay outcomes (success when one relay accepted),
 * long-form articles, imeta media, NIP-09 deletion.
 */
import { generateSecretKey, getPublicKey, nip19, verifyEvent } from 'nostr-tools';
import { resolveSettings } from '../../../core/domain/settings';
import type { PlatformAdapter, PublishContext, PublishPost } from '../../../core/ports/platform';
import { postRefOf } from '../../../core/ports/platform';
import { createNostrPlatform, mapNostrFailure } from '../../../adapters/platforms/nostr';
import { startNostrSimulator, type NostrSimulator } from '../../../ops/simulators/nostr';
import { noMedia } from '../../support/media-access';
import { FIXTURE_TIMEOUT_MS, mediaFixtures, type MediaFixtures } from '../../support/platform-harness';
import { platformContract, type PlatformHarness } from './shared-contract';

const RELAY_TIMEOUT_MS = 1500;
let serial = 0;
const unique = (text: string) => `${text} #${++serial}`;

let fx: MediaFixtures;
beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
afterAll(async () => { await fx?.close(); });

function post(adapter: PlatformAdapter, text: string, fields: Record<string, unknown> = {}): PublishPost {
  const r = resolveSettings('nostr', adapter.descriptor.settings, fields, { endpoint: 'text', mediaCount: 0 });
  if (r.violations.length) throw new Error(JSON.stringify(r.violations));
  return { kind: 'text', title: text, media: [], settings: r.values };
}

interface World { sim: NostrSimulator; adapter: PlatformAdapter; relays: string[]; secret: Uint8Array }
let world: World | undefined;
const w = () => { if (!world) throw new Error('nostr world is not started'); return world; };

async function startWorld(): Promise<World> {
  const sim = await startNostrSimulator();
  const relays = [sim.relay('alpha'), sim.relay('beta')];
  const adapter = createNostrPlatform({ allowInsecureRelays: true, relayTimeoutMs: RELAY_TIMEOUT_MS, webUrl: 'https://njump.example' });
  return { sim, adapter, relays, secret: generateSecretKey() };
}
const connectWith = (x: World, extra: Record<string, unknown> = {}) =>
  x.adapter.credentials!.verify({ private_key: nip19.nsecEncode(x.secret), relays: x.relays.join(','), ...extra });

const harness: PlatformHarness = {
  name: 'nostr',
  async start() { world = await startWorld(); },
  async stop() { await world?.sim.close(); world = undefined; },
  reset: () => w().sim.reset(),
  get adapter() { return w().adapter; },
  connect: () => connectWith(w()),
  publishable: { text: () => post(w().adapter, unique('gm from the contract')) },
  networkHas: async (o) => w().relays.some((r) => w().sim.events(r).some((e) => e.id === o.postId)),
  publishedCount: () => new Set(w().sim.events().filter((e) => e.kind !== 5).map((e) => e.id)).size,
  requestCount: () => w().sim.requests.length,
  failures: [
    { mode: 'restricted (every relay)', arm: () => w().sim.fail('restricted'), expect: { kind: 'auth_expired', reason: 'relays_refuse_key' } },
    { mode: 'blocked (every relay)', arm: () => w().sim.fail('blocked'), expect: { kind: 'auth_expired', reason: 'relays_refuse_key' } },
    { mode: 'rate_limited (every relay)', arm: () => w().sim.fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 60_000 } },
    { mode: 'rate_limited + blocked', arm: () => { w().sim.fail('rate_limited', 1, 'alpha'); w().sim.fail('blocked', 1, 'beta'); }, expect: { kind: 'rate_limited' } },
    { mode: 'error (every relay)', arm: () => w().sim.fail('error'), expect: { kind: 'transient' } },
    { mode: 'drop (every relay)', arm: () => w().sim.fail('drop'), expect: { kind: 'transient' } },
    { mode: 'silent (every relay)', arm: () => w().sim.fail('silent'), expect: { kind: 'transient' } },
  ],
};

platformContract(harness, () => fx);

describe('nostr: its own behaviour', () => {
  let x: World;
  beforeAll(async () => { x = await startWorld(); });
  afterAll(() => x.sim.close());
  beforeEach(() => x.sim.reset());

  const ctx = (credentials: Record<string, string>, key = `idem-${++serial}`): PublishContext => ({ credentials, idempotencyKey: key, media: noMedia });
  const publish = async (credentials: Record<string, string>, p: PublishPost, key?: string) => {
    const step = await x.adapter.publisher!.publish(ctx(credentials, key), p);
    if (step.kind !== 'done') throw new Error('nostr publishes in one step');
    return step.outcome;
  };

  it('connects with an nsec or a hex key: the public key is the identity, the relays are asked for the profile, nothing is published', async () => {
    const pubkey = getPublicKey(x.secret);
    const viaNsec = await connectWith(x);
    const viaHex = await connectWith(x, { private_key: Buffer.from(x.secret).toString('hex'), relays: x.relays });
    expect(viaNsec.identity).toMatchObject({ platformUserId: pubkey, handle: nip19.npubEncode(pubkey) });
    expect(viaHex.credentials).toEqual(viaNsec.credentials);
    expect(viaNsec.credentials).toEqual({ private_key: Buffer.from(x.secret).toString('hex'), public_key: pubkey, relays: x.relays.join(',') });
    expect(x.sim.requests.map((r) => r.type)).toEqual(['REQ', 'REQ', 'REQ', 'REQ']);
    expect(x.sim.events()).toEqual([]);
  });

  it('reads the profile name when a relay has one; refuses a bad key, a non-wss relay, and relays that do not answer', async () => {
    const secret = generateSecretKey();
    const { finalizeEvent } = await import('nostr-tools');
    const profile = finalizeEvent({ kind: 0, created_at: Math.floor(Date.now() / 1000), tags: [], content: JSON.stringify({ name: 'alice', picture: 'https://img.example/a.png' }) }, secret);
    const { default: WebSocket } = await import('ws');
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(x.relays[0]!);
      ws.on('open', () => ws.send(JSON.stringify(['EVENT', profile])));
      ws.on('message', () => { ws.close(); resolve(); });
    });
    const v = await x.adapter.credentials!.verify({ private_key: Buffer.from(secret).toString('hex'), relays: x.relays });
    expect(v.identity).toMatchObject({ displayName: 'alice', avatarUrl: 'https://img.example/a.png' });
    await expect(connectWith(x, { private_key: 'nsec1notakey' })).rejects.toMatchObject({ details: { field: 'private_key' } });
    const strict = createNostrPlatform({ relayTimeoutMs: RELAY_TIMEOUT_MS });
    await expect(strict.credentials!.verify({ private_key: nip19.nsecEncode(x.secret), relays: x.relays })).rejects.toMatchObject({ details: { field: 'relays' } });
    await expect(connectWith(x, { relays: `${x.sim.origin.replace('http', 'ws')}/missing` })).rejects.toMatchObject({ failure: { kind: 'transient' } });
  });

  it('publishes a signed kind 1 note to every relay, with each relay\'s outcome; one relay accepting is success', async () => {
    const { credentials } = await connectWith(x);
    x.sim.fail('blocked', 1, 'beta');
    const outcome = await publish(credentials, post(x.adapter, 'Hello relays', { nostr_hashtags: 'herald,Nostr', nostr_content_warning: 'spoilers' }));
    const [event] = x.sim.events('alpha');
    expect(event).toMatchObject({ id: outcome.postId, kind: 1, content: 'Hello relays', pubkey: getPublicKey(x.secret) });
    expect(event!.tags).toEqual([['t', 'herald'], ['t', 'nostr'], ['content-warning', 'spoilers']]);
    expect(verifyEvent(event!)).toBe(true);
    expect(x.sim.events('beta')).toEqual([]);
    expect(outcome.extra!.relays).toEqual([
      { relay: x.relays[0], accepted: true, message: '' },
      { relay: x.relays[1], accepted: false, message: 'blocked: this relay does not accept your events' },
    ]);
    expect(outcome.warnings).toEqual([expect.stringContaining('refused it (blocked:')]);
    expect(outcome.url).toBe(`https://njump.example/${outcome.extra!.nevent}`);
  });

  it('attaches media by URL with imeta tags, and sends long text as a kind 30023 article with a d tag stable per post', async () => {
    const { credentials } = await connectWith(x);
    const note = await publish(credentials, post(x.adapter, 'Look', { nostr_media_urls: 'https://cdn.example/a.jpg,https://cdn.example/clip', nostr_alt_text: 'A cat||A clip' }));
    const ev = x.sim.events('alpha').find((e) => e.id === note.postId)!;
    expect(ev.content).toBe('Look\n\nhttps://cdn.example/a.jpg\nhttps://cdn.example/clip');
    expect(ev.tags).toEqual([['imeta', 'url https://cdn.example/a.jpg', 'm image/jpeg', 'alt A cat'], ['imeta', 'url https://cdn.example/clip', 'alt A clip']]);

    const long = `# My essay\n\n${'words '.repeat(1200)}`;
    const article = await publish(credentials, post(x.adapter, long, { nostr_summary: 'An essay' }), 'post-42');
    const a = x.sim.events('alpha').find((e) => e.id === article.postId)!;
    expect(a.kind).toBe(30023);
    const d = a.tags.find((t) => t[0] === 'd')![1];
    expect(a.tags).toEqual(expect.arrayContaining([['title', 'My essay'], ['summary', 'An essay']]));
    expect(article.url).toContain('/naddr1');
    // A retry of the same post replaces the article instead of adding a second one.
    await new Promise((r) => setTimeout(r, 1100));
    await publish(credentials, post(x.adapter, long), 'post-42');
    expect(x.sim.events('alpha').filter((e) => e.kind === 30023).map((e) => e.tags.find((t) => t[0] === 'd')![1])).toEqual([d]);
  });

  it('deletes with a NIP-09 kind 5 request the relays honour', async () => {
    const { credentials } = await connectWith(x);
    const outcome = await publish(credentials, post(x.adapter, 'Oops'));
    await x.adapter.postEditor!.unpublish!(ctx(credentials), postRefOf(outcome));
    for (const relay of x.relays) {
      const events = x.sim.events(relay);
      expect(events.map((e) => e.kind)).toEqual([5]);
      expect(events[0]!.tags).toEqual([['e', outcome.postId], ['k', '1']]);
    }
  });

  it('a relay that only admits other keys refuses with restricted:, and the other relay still takes the note', async () => {
    const { credentials } = await connectWith(x);
    x.sim.allowOnly('alpha', ['0'.repeat(64)]);
    try {
      const outcome = await publish(credentials, post(x.adapter, 'Partly'));
      expect((outcome.extra!.relays as Array<{ accepted: boolean }>).map((r) => r.accepted)).toEqual([false, true]);
    } finally {
      x.sim.allowOnly('alpha', undefined);
    }
  });

  it('a cancelled publish stops waiting for silent relays and fails as transient (outcome unknown)', async () => {
    const { credentials } = await connectWith(x);
    const slow = createNostrPlatform({ allowInsecureRelays: true, relayTimeoutMs: 60_000 });
    x.sim.fail('silent');
    const controller = new AbortController();
    const pending = slow.publisher!.publish({ ...ctx(credentials), signal: controller.signal }, post(slow, 'Never mind'));
    // Both relays have the EVENT (and stay silent) before the publish is cancelled.
    for (let i = 0; i < 200 && x.sim.requests.filter((r) => r.type === 'EVENT').length < 2; i++) await new Promise((r) => setTimeout(r, 25));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ failure: { kind: 'transient' }, message: expect.stringContaining('aborted') });
  });

  it('maps relay answers: invalid everywhere is content, a mix with an unanswered relay is transient', () => {
    const ok = (relay: string, message: string) => ({ relay, kind: 'ok' as const, accepted: false, message });
    const context = { timeoutMs: 1000, now: new Date() };
    expect(mapNostrFailure([ok('a', 'invalid: bad sig'), ok('b', 'pow: difficulty 20 required')], context).failure).toEqual({ kind: 'invalid_content', code: 'pow_required' });
    expect(mapNostrFailure([ok('a', 'blocked: no'), { relay: 'b', kind: 'no_response', reason: 'timeout' }], context).failure).toEqual({ kind: 'transient' });
    expect(mapNostrFailure([], context).failure).toEqual({ kind: 'auth_expired', reason: 'no_relays' });
  });
});
