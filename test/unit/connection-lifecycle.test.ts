import { createMemoryStorage } from '../../adapters/memory/storage';
import { createMemoryNotifier } from '../../adapters/memory/notifications/notifier';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createAesSecretBox, randomIds } from '../../adapters/crypto/node-crypto';
import { canTransition, connectionGeneration, DEFAULT_LIFECYCLE_SETTINGS, transitionDeliveryKey, type LifecycleSettings } from '../../core/domain/connection-lifecycle';
import { PlatformError, HeraldError } from '../../core/domain/errors';
import { NO_SETTINGS } from '../../core/domain/settings';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { CallContext, PlatformAdapter, PlatformCredentials } from '../../core/ports/platform';
import type { ConnectionEvent, HeraldEvent, Notifier } from '../../core/ports/notifications';
import type { ConnectionRefreshes } from '../../core/ports/connection-refreshes';
import type { AccountPauses } from '../../core/ports/account-pauses';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { completeOAuth, startOAuth } from '../../core/usecases/oauth-connect';
import { withConnection } from '../../core/usecases/connection-session';
import { disconnectIfStillReauth, markReauthRequired, recordAuthStrike, recordRefreshFailure } from '../../core/usecases/connection-lifecycle';
import { disconnectAccount } from '../../core/usecases/disconnect-account';
import { ensureRefreshAheadForAll, refreshAhead } from '../../core/usecases/refresh-ahead';
import { ensureOperatorAccount } from '../../core/usecases/operator-accounts';
import { createProfile, deleteProfile } from '../../core/usecases/profiles';
import { openCredentials } from '../../core/usecases/connection-session';
import { sealedCredentialsOf } from '../support/mothers';

const EMAIL = 'lifecycle@example.com';

/**
 * A network with both connect kinds, whose token endpoint the test steers: `refresh` answers
 * fresh tokens living `ttlMs`, refuses (`refused`: the refresh token expired or was revoked), or
 * fails (`failing`: network trouble). Calls are refused with any access token but the newest, or
 * always (`callsRefused`).
 */
function steerableNetwork(clock: { now(): Date }) {
  let generation = 1;
  const state = { refused: false, failing: false, callsRefused: false, ttlMs: 3600_000, refreshes: 0 };
  const tokens = (): PlatformCredentials => ({
    access_token: `at-${generation}`, refresh_token: `rt-${generation}`, expires_at: new Date(clock.now().getTime() + state.ttlMs).toISOString(),
  });
  const adapter: PlatformAdapter = {
    descriptor: { id: 'tiktok', displayName: 'TikTok', connect: 'oauth', endpoints: ['text'], limits: {}, settings: NO_SETTINGS },
    credentials: {
      async verify() {
        return { identity: { platformUserId: 'tt-1', handle: '@tt', displayName: 'TT', avatarUrl: '' }, credentials: tokens() };
      },
    },
    oauth: {
      pkce: false,
      authorizeUrl: ({ state: s }) => `https://tiktok.example/authorize?state=${s}`,
      async exchangeCode() {
        generation += 1;
        return { identity: { platformUserId: 'tt-1', handle: '@tt', displayName: 'TT', avatarUrl: '' }, credentials: tokens() };
      },
    },
    refresher: {
      async refresh(credentials) {
        state.refreshes += 1;
        if (state.failing) throw new PlatformError('tiktok', { kind: 'transient' }, 'token endpoint down');
        if (state.refused || credentials.refresh_token !== `rt-${generation}`) {
          throw new PlatformError('tiktok', { kind: 'auth_expired', reason: 'invalid_grant' }, 'refresh token invalid');
        }
        generation += 1;
        return tokens();
      },
    },
  };
  const call = async (ctx: CallContext) => {
    if (state.callsRefused || ctx.credentials.access_token !== `at-${generation}`) throw new PlatformError('tiktok', { kind: 'auth_expired', reason: 'token_expired' }, 'expired');
    return ctx.credentials.access_token;
  };
  return { adapter, call, state, tokens };
}

/** A notifier whose first `failures` emits throw (an outbox write that failed: the caller retries). */
function flakyNotifier(inner: Notifier & { events: HeraldEvent[] }) {
  let failures = 0;
  return {
    events: inner.events,
    failNext(n: number) { failures = n; },
    async emit(event: HeraldEvent, key: string) {
      if (failures > 0) {
        failures -= 1;
        throw new Error('outbox unreachable');
      }
      await inner.emit(event, key);
    },
  };
}

async function setup(settings: Partial<LifecycleSettings> = {}) {
  let now = new Date('2026-03-01T00:00:00Z');
  const clock = { now: () => new Date(now) };
  const storage = createMemoryStorage();
  const secrets = createAesSecretBox(Buffer.alloc(32, 9).toString('base64'));
  const network = steerableNetwork(clock);
  const notifier = flakyNotifier(createMemoryNotifier());
  const started: string[] = [];
  const stopped: string[] = [];
  const pausesEnded: string[] = [];
  const ensured: string[] = [];
  const refreshes: ConnectionRefreshes = {
    async connected(c) { started.push(c.id); },
    async ensure(c) { ensured.push(c.id); },
    async disconnected(id) { stopped.push(id); },
  };
  const pauses: AccountPauses = { async paused() {}, async ended(id) { pausesEnded.push(id); } };
  const deps = {
    storage, secrets, clock, notifier, refreshes, pauses, ids: randomIds,
    platforms: createPlatformRegistry([network.adapter]),
    pkce: { newVerifier: () => 'v'.repeat(43), challenge: () => 'c'.repeat(43) },
    lifecycleSettings: settings,
  };
  const operator = await ensureOperatorAccount({ storage, clock, ids: randomIds } as never, { email: EMAIL, plan: 'business' });
  await createProfile(deps as never, operator, { username: 'alice' });
  const connect = () => connectWithCredentials(deps, operator, 'tiktok', { profile_username: 'alice' });
  const stored = async () => storage.connectedAccounts.find(operator.id, 'alice', 'tiktok');
  const events = (name?: string) => (notifier.events as ConnectionEvent[]).filter((e) => !name || e.event === name);
  return {
    deps, network, notifier, operator, connect, stored, events, started, stopped, pausesEnded, ensured,
    advance(ms: number) { now = new Date(now.getTime() + ms); },
  };
}

describe('the lifecycle table', () => {
  it('has exactly the spec transitions (plus disconnecting an account that needs reauth)', () => {
    expect(canTransition(null, 'connected')).toBe(true);
    expect(canTransition('reauth_required', 'connected')).toBe(true);
    expect(canTransition('connected', 'disconnected')).toBe(true);
    expect(canTransition('reauth_required', 'disconnected')).toBe(true);
    expect(canTransition('connected', 'reauth_required')).toBe(true);
    expect(canTransition('reauth_required', 'reauth_required')).toBe(false);
    expect(canTransition(null, 'disconnected')).toBe(false);
    expect(canTransition(null, 'reauth_required')).toBe(false);
    expect(DEFAULT_LIFECYCLE_SETTINGS).toMatchObject({ refreshFailures: 3, authStrikes: 1 });
  });
});

describe('connected', () => {
  it('connecting emits social_account_connected with the spec payload and starts refresh-ahead', async () => {
    const w = await setup();
    const connection = await w.connect();
    expect(w.events()).toEqual([{
      event: 'social_account_connected', status: 'connected', account_id: w.operator.id, user_email: EMAIL, platform: 'tiktok',
      account_name: '@tt', profile_username: 'alice', created_at: '2026-03-01T00:00:00.000Z',
    }]);
    expect(w.events()[0]).not.toHaveProperty('reason');
    expect(w.started).toEqual([connection.id]);
  });

  it('a reconnect is a new generation: a second connected event, even at the same instant', async () => {
    const w = await setup();
    const first = await w.connect();
    const second = await w.connect();
    expect(second.id).toBe(first.id);
    expect(connectionGeneration(second)).not.toBe(connectionGeneration(first));
    expect(w.events('social_account_connected')).toHaveLength(2);
  });

  it('reconnecting clears reauth_required and its counters, and ends the pause of a paused account', async () => {
    const w = await setup();
    const first = await w.connect();
    await w.deps.storage.connectedAccounts.setRestriction(first.id, { reason: 'spam_risk', until: new Date('2026-03-02T00:00:00Z') }, w.deps.clock.now());
    await markReauthRequired(w.deps, first, 'max_auth_strikes');
    w.advance(1000);
    const back = await w.connect();
    expect(back).toMatchObject({ status: 'connected' });
    expect(back).not.toHaveProperty('restriction');
    expect(back).not.toHaveProperty('reauthReason');
    expect(w.pausesEnded).toEqual([first.id]);
    expect(w.events().map((e) => e.event)).toEqual(['social_account_connected', 'social_account_reauth_required', 'social_account_connected']);
  });

  it('an OAuth connection goes through the same transition', async () => {
    const w = await setup();
    const start = await startOAuth(w.deps, w.operator, 'tiktok', { profileUsername: 'alice', callbackUrl: 'https://herald.example/cb' });
    const done = await completeOAuth(w.deps, 'tiktok', { state: start.state, code: 'code-1' });
    expect(done.status).toBe('success');
    expect(w.events('social_account_connected')).toHaveLength(1);
    expect(w.started).toHaveLength(1);
  });
});

describe('reauth_required', () => {
  it('is emitted once per transition, however often it is retried or repeated', async () => {
    const w = await setup();
    const connection = await w.connect();
    w.notifier.failNext(1);
    await expect(markReauthRequired(w.deps, connection, 'max_auth_strikes')).rejects.toThrow('outbox unreachable');
    // The status was written, the event was not: the retry emits it, once.
    expect(await w.stored()).toMatchObject({ status: 'reauth_required', reauthReason: 'max_auth_strikes' });
    await markReauthRequired(w.deps, connection, 'max_auth_strikes');
    await markReauthRequired(w.deps, connection, 'token_refresh_threshold_exceeded');
    expect(w.events('social_account_reauth_required')).toEqual([expect.objectContaining({
      status: 'reauth_required', reason: 'max_auth_strikes', user_email: EMAIL, platform: 'tiktok', account_name: '@tt', profile_username: 'alice',
    })]);
  });

  it('does nothing to a newer generation than the one it was told about', async () => {
    const w = await setup();
    const old = await w.connect();
    w.advance(1000);
    await w.connect();
    expect(await markReauthRequired(w.deps, old, 'max_auth_strikes')).toBe(false);
    expect(await w.stored()).toMatchObject({ status: 'connected' });
    expect(w.events('social_account_reauth_required')).toEqual([]);
  });

  it('token_refresh_threshold_exceeded after `refreshFailures` failed refreshes in a row, a successful refresh resets the count', async () => {
    const w = await setup({ refreshFailures: 3 });
    const connection = await w.connect();
    expect(await recordRefreshFailure(w.deps, connection, false)).toEqual({ failures: 1, reauthRequired: false });
    expect(await recordRefreshFailure(w.deps, connection, false)).toEqual({ failures: 2, reauthRequired: false });
    await w.deps.storage.connectedAccounts.updateCredentials(connection.id, connection.sealedCredentials, w.deps.clock.now());
    expect(await w.stored()).not.toHaveProperty('refreshFailures');
    for (let i = 1; i <= 2; i += 1) expect(await recordRefreshFailure(w.deps, connection, false)).toEqual({ failures: i, reauthRequired: false });
    expect(w.events('social_account_reauth_required')).toEqual([]);
    expect(await recordRefreshFailure(w.deps, connection, false)).toEqual({ failures: 3, reauthRequired: true });
    expect(w.events('social_account_reauth_required')).toEqual([expect.objectContaining({ reason: 'token_refresh_threshold_exceeded' })]);
  });

  it('a refused refresh reaches the threshold at once', async () => {
    const w = await setup({ refreshFailures: 5 });
    const connection = await w.connect();
    expect(await recordRefreshFailure(w.deps, connection, true)).toEqual({ failures: 5, reauthRequired: true });
    expect(w.events('social_account_reauth_required')).toEqual([expect.objectContaining({ reason: 'token_refresh_threshold_exceeded' })]);
  });

  it('max_auth_strikes after `authStrikes` refused calls in a row', async () => {
    const w = await setup({ authStrikes: 2 });
    const connection = await w.connect();
    expect(await recordAuthStrike(w.deps, connection)).toBe(false);
    expect(await w.stored()).toMatchObject({ status: 'connected', authStrikes: 1 });
    expect(await recordAuthStrike(w.deps, connection)).toBe(true);
    expect(w.events('social_account_reauth_required')).toEqual([expect.objectContaining({ reason: 'max_auth_strikes' })]);
  });

  describe('through the connection session (every call as the account)', () => {
    it('a refused refresh: reauth_required (token_refresh_threshold_exceeded) with its event', async () => {
      const w = await setup();
      w.network.state.ttlMs = 60_000; // expires within the session's five minutes: renewed before the call
      const connection = await w.connect();
      w.network.state.refused = true;
      await expect(withConnection(w.deps, connection, w.network.call)).rejects.toBeInstanceOf(PlatformError);
      expect(await w.stored()).toMatchObject({ status: 'reauth_required', reauthReason: 'token_refresh_threshold_exceeded' });
      expect(w.events('social_account_reauth_required')).toHaveLength(1);
    });

    it('renewed credentials refused too: reauth_required (max_auth_strikes)', async () => {
      const w = await setup();
      const connection = await w.connect();
      w.network.state.callsRefused = true;
      await expect(withConnection(w.deps, connection, w.network.call)).rejects.toBeInstanceOf(PlatformError);
      expect(w.network.state.refreshes).toBe(1);
      expect(await w.stored()).toMatchObject({ status: 'reauth_required', reauthReason: 'max_auth_strikes' });
      expect(w.events('social_account_reauth_required')).toEqual([expect.objectContaining({ reason: 'max_auth_strikes' })]);
    });

    it('a call that works clears the strikes', async () => {
      const w = await setup({ authStrikes: 3 });
      let connection = await w.connect();
      w.network.state.callsRefused = true;
      await expect(withConnection(w.deps, connection, w.network.call)).rejects.toBeInstanceOf(PlatformError);
      expect(await w.stored()).toMatchObject({ authStrikes: 1 });
      w.network.state.callsRefused = false;
      connection = (await w.stored())!;
      await expect(withConnection(w.deps, connection, w.network.call)).resolves.toMatch(/^at-/);
      expect(await w.stored()).not.toHaveProperty('authStrikes');
    });

    it('network trouble at the token endpoint counts toward the threshold', async () => {
      const w = await setup({ refreshFailures: 2 });
      w.network.state.ttlMs = 60_000; // expires within the session's five minutes: renewed before each call
      const connection = await w.connect();
      w.network.state.failing = true;
      await expect(withConnection(w.deps, connection, w.network.call)).rejects.toBeInstanceOf(PlatformError);
      expect(await w.stored()).toMatchObject({ status: 'connected', refreshFailures: 1 });
      await expect(withConnection(w.deps, (await w.stored())!, w.network.call)).rejects.toBeInstanceOf(PlatformError);
      expect(await w.stored()).toMatchObject({ status: 'reauth_required', reauthReason: 'token_refresh_threshold_exceeded' });
      expect(w.events('social_account_reauth_required')).toHaveLength(1);
    });
  });
});

describe('disconnected', () => {
  it('manual disconnect: the event (manual_disconnect), the connection gone, its workflows ended', async () => {
    const w = await setup();
    const connection = await w.connect();
    const { connection: gone } = await disconnectAccount(w.deps, { accountId: w.operator.id, profileUsername: 'alice', platform: 'tiktok', reason: 'manual_disconnect' });
    expect(gone.id).toBe(connection.id);
    expect(await w.stored()).toBeNull();
    expect(w.stopped).toEqual([connection.id]);
    expect(w.pausesEnded).toEqual([connection.id]);
    expect(w.events('social_account_disconnected')).toEqual([{
      event: 'social_account_disconnected', status: 'disconnected', reason: 'manual_disconnect', account_id: w.operator.id, user_email: EMAIL,
      platform: 'tiktok', account_name: '@tt', profile_username: 'alice', created_at: '2026-03-01T00:00:00.000Z',
    }]);
  });

  it('a disconnect retried after a failure emits once; a second disconnect answers ACCOUNT_NOT_CONNECTED', async () => {
    const w = await setup();
    await w.connect();
    const input = { accountId: w.operator.id, profileUsername: 'alice', platform: 'tiktok' as const, reason: 'manual_disconnect' as const };
    // The event went out, then the delete failed: the retry finds the connection and finishes.
    const deleteIf = w.deps.storage.connectedAccounts.deleteIf;
    w.deps.storage.connectedAccounts.deleteIf = async () => { throw new Error('database down'); };
    await expect(disconnectAccount(w.deps, input)).rejects.toThrow('database down');
    w.deps.storage.connectedAccounts.deleteIf = deleteIf;
    await disconnectAccount(w.deps, input);
    expect(w.events('social_account_disconnected')).toHaveLength(1);
    await expect(disconnectAccount(w.deps, input)).rejects.toMatchObject({ kind: 'not_found', errorCode: 'ACCOUNT_NOT_CONNECTED' });
    expect(w.events('social_account_disconnected')).toHaveLength(1);
  });

  it('unknown profile: PROFILE_NOT_FOUND; reddit: reddit_unavailable', async () => {
    const w = await setup();
    await expect(disconnectAccount(w.deps, { accountId: w.operator.id, profileUsername: 'nobody', platform: 'tiktok', reason: 'manual_disconnect' }))
      .rejects.toMatchObject({ errorCode: 'PROFILE_NOT_FOUND' });
    await expect(disconnectAccount(w.deps, { accountId: w.operator.id, profileUsername: 'alice', platform: 'reddit', reason: 'manual_disconnect' }))
      .rejects.toBeInstanceOf(HeraldError);
  });

  it('account_blocked: still reauth_required in the watched generation; a reconnect in between makes it a no-op', async () => {
    const w = await setup();
    const connection = await w.connect();
    await markReauthRequired(w.deps, connection, 'max_auth_strikes');
    w.advance(1000);
    const back = await w.connect();
    expect(await disconnectIfStillReauth(w.deps, { connectionId: back.id, generation: connectionGeneration(connection) })).toBe(false);
    expect(await w.stored()).toMatchObject({ status: 'connected' });

    await markReauthRequired(w.deps, back, 'max_auth_strikes');
    expect(await disconnectIfStillReauth(w.deps, { connectionId: back.id, generation: connectionGeneration(back) })).toBe(true);
    expect(await disconnectIfStillReauth(w.deps, { connectionId: back.id, generation: connectionGeneration(back) })).toBe(false);
    expect(await w.stored()).toBeNull();
    expect(w.events('social_account_disconnected')).toEqual([expect.objectContaining({ reason: 'account_blocked' })]);
    expect(w.events().map((e) => e.event)).toEqual([
      'social_account_connected', 'social_account_reauth_required', 'social_account_connected', 'social_account_reauth_required', 'social_account_disconnected',
    ]);
  });

  it('deleting the profile disconnects its accounts through the lifecycle', async () => {
    const w = await setup();
    const connection = await w.connect();
    await deleteProfile(w.deps, w.operator, { username: 'alice' });
    expect(await w.deps.storage.connectedAccounts.findById(connection.id)).toBeNull();
    expect(w.stopped).toEqual([connection.id]);
    expect(w.events('social_account_disconnected')).toEqual([expect.objectContaining({ reason: 'manual_disconnect', profile_username: 'alice' })]);
  });

  it('delivery keys name the transition: connection, generation, status', async () => {
    const w = await setup();
    const connection = await w.connect();
    expect(transitionDeliveryKey(connection, 'reauth_required')).toBe(`connection:${connection.id}:${connection.connectedAt.getTime()}:reauth_required`);
  });
});

describe('refresh-ahead (one round of the per-account workflow)', () => {
  const margin = 10 * 60_000;

  it('not due yet: wake at expiry minus the margin; due: renewed, next wake from the new expiry', async () => {
    const w = await setup();
    w.network.state.ttlMs = 3600_000;
    const connection = await w.connect();
    const expiry = Date.parse(openCredentials(w.deps, connection).expires_at!);
    expect(await refreshAhead(w.deps, { connectionId: connection.id, marginMs: margin })).toEqual({ kind: 'next', nextAt: new Date(expiry - margin).toISOString() });
    expect(w.network.state.refreshes).toBe(0);

    w.advance(3600_000 - margin + 1);
    const outcome = await refreshAhead(w.deps, { connectionId: connection.id, marginMs: margin });
    expect(w.network.state.refreshes).toBe(1);
    expect(outcome).toEqual({ kind: 'next', nextAt: new Date(w.deps.clock.now().getTime() + 3600_000 - margin).toISOString() });
    // The renewed token is stored: a publish now uses it without refreshing again.
    await expect(withConnection(w.deps, (await w.stored())!, w.network.call)).resolves.toBe('at-2');
    expect(w.network.state.refreshes).toBe(1);
  });

  it('a revoked refresh token: reauth_required with its event, and the round says so', async () => {
    const w = await setup();
    const connection = await w.connect();
    w.advance(3600_000);
    w.network.state.refused = true;
    const outcome = await refreshAhead(w.deps, { connectionId: connection.id, marginMs: margin });
    expect(outcome).toEqual({ kind: 'reauth_required', since: w.deps.clock.now().toISOString(), generation: connectionGeneration(connection) });
    expect(w.events('social_account_reauth_required')).toEqual([expect.objectContaining({ reason: 'token_refresh_threshold_exceeded' })]);
    // Later rounds emit nothing more.
    await refreshAhead(w.deps, { connectionId: connection.id, marginMs: margin });
    expect(w.events('social_account_reauth_required')).toHaveLength(1);
  });

  it('a failing token endpoint: counted, retried, and reauth_required at the threshold', async () => {
    const w = await setup({ refreshFailures: 2 });
    const connection = await w.connect();
    w.advance(3600_000);
    w.network.state.failing = true;
    expect(await refreshAhead(w.deps, { connectionId: connection.id, marginMs: margin })).toEqual({ kind: 'failed', failures: 1 });
    expect(await refreshAhead(w.deps, { connectionId: connection.id, marginMs: margin })).toMatchObject({ kind: 'reauth_required' });
    expect(w.events('social_account_reauth_required')).toHaveLength(1);
  });

  it('a reauth_required marked without an outbox at hand: the next round emits its event (same delivery key, so never twice)', async () => {
    const w = await setup();
    const connection = await w.connect();
    await markReauthRequired({ ...w.deps, notifier: undefined }, connection, 'max_auth_strikes');
    expect(w.events('social_account_reauth_required')).toEqual([]);
    await refreshAhead(w.deps, { connectionId: connection.id, marginMs: margin });
    await refreshAhead(w.deps, { connectionId: connection.id, marginMs: margin });
    expect(w.events('social_account_reauth_required')).toEqual([expect.objectContaining({ reason: 'max_auth_strikes' })]);
  });

  it('ends when there is nothing to keep alive', async () => {
    const w = await setup();
    expect(await refreshAhead(w.deps, { connectionId: 'no-such-connection', marginMs: margin })).toEqual({ kind: 'done', reason: 'gone' });
    const connection = await w.connect();
    const noExpiry: ConnectedAccount = { ...connection, sealedCredentials: sealedCredentialsOf(w.deps.secrets, connection, { access_token: 'x' }) };
    await w.deps.storage.connectedAccounts.updateCredentials(connection.id, noExpiry.sealedCredentials, w.deps.clock.now());
    expect(await refreshAhead(w.deps, { connectionId: connection.id, marginMs: margin })).toEqual({ kind: 'done', reason: 'no_expiry' });
  });

  it('the back-fill at worker start ensures a workflow for every account of a network that renews tokens, page by page', async () => {
    const w = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      await createProfile(w.deps as never, w.operator, { username: `p${i}` });
      ids.push((await connectWithCredentials(w.deps, w.operator, 'tiktok', { profile_username: `p${i}` })).id);
    }
    expect(await ensureRefreshAheadForAll(w.deps, { pageSize: 2 })).toBe(5);
    expect([...w.ensured].sort()).toEqual([...ids].sort());
  });
});
