import { createMemoryStorage } from '../../adapters/memory/storage';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createAesSecretBox } from '../../adapters/crypto/node-crypto';
import { PlatformError } from '../../core/domain/errors';
import { NO_SETTINGS } from '../../core/domain/settings';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { CallContext, PlatformAdapter, PlatformCredentials } from '../../core/ports/platform';
import { openCredentials, withConnection } from '../../core/usecases/connection-session';
import { sealedCredentialsOf } from '../support/mothers';

/**
 * A network that rotates refresh tokens like TikTok and X: each refresh token works once, and a
 * second refresh with the same token is refused (auth_expired), as is any access token but the
 * newest one.
 */
function rotatingNetwork(opts: { refreshDelayMs?: number } = {}) {
  let generation = 1;
  let refreshes = 0;
  const adapter: PlatformAdapter = {
    descriptor: { id: 'tiktok', displayName: 'TikTok', connect: 'oauth', endpoints: ['text'], limits: {}, settings: NO_SETTINGS },
    refresher: {
      async refresh(credentials) {
        refreshes += 1;
        if (opts.refreshDelayMs) await new Promise((r) => setTimeout(r, opts.refreshDelayMs));
        if (credentials.refresh_token !== `rt-${generation}`) {
          throw new PlatformError('tiktok', { kind: 'auth_expired', reason: 'invalid_grant' }, 'refresh token already used');
        }
        generation += 1;
        return { access_token: `at-${generation}`, refresh_token: `rt-${generation}`, expires_at: '2026-01-02T00:00:00.000Z' };
      },
    },
  };
  const call = async (ctx: CallContext) => {
    if (ctx.credentials.access_token !== `at-${generation}`) throw new PlatformError('tiktok', { kind: 'auth_expired', reason: 'token_expired' }, 'expired');
    return ctx.credentials.access_token;
  };
  return { adapter, call, refreshes: () => refreshes };
}

async function setup(credentials: PlatformCredentials, network = rotatingNetwork()) {
  const storage = createMemoryStorage();
  const secrets = createAesSecretBox(Buffer.alloc(32, 3).toString('base64'));
  const now = new Date('2026-01-01T00:00:00Z');
  const connection: ConnectedAccount = {
    id: 'conn-1', accountId: 'acc-1', profileUsername: 'alice', platform: 'tiktok', status: 'connected',
    platformUserId: 'u1', handle: '@u1', displayName: 'U1', avatarUrl: '',
    sealedCredentials: sealedCredentialsOf(secrets, { accountId: 'acc-1', profileUsername: 'alice', platform: 'tiktok' }, credentials), connectedAt: now, updatedAt: now,
  } as ConnectedAccount;
  await storage.connectedAccounts.upsert(connection);
  const deps = { storage, secrets, clock: { now: () => now }, platforms: createPlatformRegistry([network.adapter]) };
  const stored = async () => openCredentials({ secrets }, (await storage.connectedAccounts.findById('conn-1'))!);
  return { deps, network, connection, stored, storage };
}

describe('withConnection: every call as a connected account', () => {
  it('renews a token that expires within five minutes before calling, and stores the rotated one', async () => {
    const { deps, network, connection, stored } = await setup({ access_token: 'at-1', refresh_token: 'rt-1', expires_at: '2026-01-01T00:04:00.000Z' });
    await expect(withConnection(deps, connection, network.call)).resolves.toBe('at-2');
    expect(network.refreshes()).toBe(1);
    expect(await stored()).toMatchObject({ access_token: 'at-2', refresh_token: 'rt-2' });
  });

  it('calls with the stored token when it is not expiring', async () => {
    const { deps, network, connection } = await setup({ access_token: 'at-1', refresh_token: 'rt-1', expires_at: '2026-01-01T06:00:00.000Z' });
    await expect(withConnection(deps, connection, network.call)).resolves.toBe('at-1');
    expect(network.refreshes()).toBe(0);
  });

  it('renews once and retries once when the network answers auth_expired', async () => {
    const network = rotatingNetwork();
    const { deps, connection } = await setup({ access_token: 'at-0-revoked', refresh_token: 'rt-1' }, network);
    await expect(withConnection(deps, connection, network.call)).resolves.toBe('at-2');
    expect(network.refreshes()).toBe(1);
  });

  it('serializes concurrent refreshes: ten callers, one refresh, every caller gets the rotated token', async () => {
    const network = rotatingNetwork({ refreshDelayMs: 20 });
    const { deps, connection, stored } = await setup({ access_token: 'at-1', refresh_token: 'rt-1', expires_at: '2026-01-01T00:01:00.000Z' }, network);
    // Every caller loaded the connection before any refresh: all hold the same (expiring) credentials.
    const results = await Promise.all(Array.from({ length: 10 }, () => withConnection(deps, connection, network.call)));
    expect(results).toEqual(Array(10).fill('at-2'));
    expect(network.refreshes()).toBe(1);
    expect(await stored()).toMatchObject({ refresh_token: 'rt-2' });
    expect((await deps.storage.connectedAccounts.findById('conn-1'))!.status).toBe('connected');
  });

  it('marks the account reauth_required when the network refuses the refresh', async () => {
    const network = rotatingNetwork();
    const { deps, connection, storage } = await setup({ access_token: 'at-x', refresh_token: 'rt-stale' }, network);
    await expect(withConnection(deps, connection, network.call)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    expect((await storage.connectedAccounts.findById('conn-1'))!.status).toBe('reauth_required');
  });

  it('leaves other failures alone: no refresh, no reauth', async () => {
    const network = rotatingNetwork();
    const { deps, connection, storage } = await setup({ access_token: 'at-1', refresh_token: 'rt-1' }, network);
    const failing = () => Promise.reject(new PlatformError('tiktok', { kind: 'transient' }, 'down'));
    await expect(withConnection(deps, connection, failing)).rejects.toMatchObject({ failure: { kind: 'transient' } });
    expect(network.refreshes()).toBe(0);
    expect((await storage.connectedAccounts.findById('conn-1'))!.status).toBe('connected');
  });
});
