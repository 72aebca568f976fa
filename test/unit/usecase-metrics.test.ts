import { createMemoryStorage } from '../../adapters/memory/storage';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createAesSecretBox } from '../../adapters/crypto/node-crypto';
import { createPrometheusMetrics } from '../../adapters/telemetry/prometheus';
import { PlatformError } from '../../core/domain/errors';
import { NO_SETTINGS } from '../../core/domain/settings';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { PlatformAdapter, PlatformCredentials } from '../../core/ports/platform';
import { withConnection } from '../../core/usecases/connection-session';
import { parsePrometheus, valueOf } from '../support/prometheus-text';
import { aWorld } from '../support/world';
import { createInlineUploadRunner } from '../../adapters/memory/upload-runner';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { createProfile } from '../../core/usecases/profiles';
import { submitUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { sealedCredentialsOf } from '../support/mothers';

/** Token refreshes and reauth marks are counted by the connection session, through the Metrics port. */
describe('use cases count through the Metrics port', () => {
  async function setup(refresh: PlatformAdapter['refresher']) {
    const storage = createMemoryStorage();
    const secrets = createAesSecretBox(Buffer.alloc(32, 3).toString('base64'));
    const now = new Date('2026-01-01T00:00:00Z');
    const credentials: PlatformCredentials = { access_token: 'at-1', refresh_token: 'rt-1', expires_at: '2026-01-01T00:01:00.000Z' };
    const connection = {
      id: 'conn-1', accountId: 'acc-1', profileUsername: 'alice', platform: 'tiktok', status: 'connected',
      platformUserId: 'u1', handle: '@u1', displayName: 'U1', avatarUrl: '',
      sealedCredentials: sealedCredentialsOf(secrets, { accountId: 'acc-1', profileUsername: 'alice', platform: 'tiktok' }, credentials), connectedAt: now, updatedAt: now,
    } as ConnectedAccount;
    await storage.connectedAccounts.upsert(connection);
    const adapter: PlatformAdapter = {
      descriptor: { id: 'tiktok', displayName: 'TikTok', connect: 'oauth', endpoints: ['text'], limits: {}, settings: NO_SETTINGS },
      ...(refresh ? { refresher: refresh } : {}),
    };
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const deps = { storage, secrets, clock: { now: () => now }, platforms: createPlatformRegistry([adapter]), metrics };
    return { deps, connection, metrics, storage };
  }

  it('counts a successful refresh', async () => {
    const { deps, connection, metrics } = await setup({ refresh: async () => ({ access_token: 'at-2', refresh_token: 'rt-2', expires_at: '2026-01-02T00:00:00.000Z' }) });
    await expect(withConnection(deps, connection, async (ctx) => ctx.credentials.access_token)).resolves.toBe('at-2');
    const samples = parsePrometheus(await metrics.text());
    expect(valueOf(samples, 'herald_token_refreshes_total', { network: 'tiktok', outcome: 'ok' })).toBe(1);
    expect(valueOf(samples, 'herald_token_refreshes_total', { network: 'tiktok', outcome: 'failed' })).toBe(0);
  });

  it('counts a refused refresh and the account marked reauth_required', async () => {
    const { deps, connection, metrics, storage } = await setup({
      refresh: async () => { throw new PlatformError('tiktok', { kind: 'auth_expired', reason: 'invalid_grant' }, 'refresh token revoked'); },
    });
    await expect(withConnection(deps, connection, async () => 'never')).rejects.toThrow('refresh token revoked');
    expect((await storage.connectedAccounts.findById('conn-1'))!.status).toBe('reauth_required');
    const samples = parsePrometheus(await metrics.text());
    expect(valueOf(samples, 'herald_token_refreshes_total', { network: 'tiktok', outcome: 'failed' })).toBe(1);
    expect(valueOf(samples, 'herald_accounts_reauth_required_total', { network: 'tiktok' })).toBe(1);
  });

  it('counts uploads accepted, published (with latency) and failed by network and error code, and account pauses', async () => {
    const world = aWorld();
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const runDeps = { ...world.deps, metrics };
    const deps = { ...runDeps, runner: createInlineUploadRunner(runDeps) };
    const { account } = await world.operator();
    await createProfile(deps, account, { username: 'alice' });
    for (const p of ['discord', 'telegram'] as const) await connectWithCredentials(deps, account, p, { profile_username: 'alice', secret: 'good' });
    const post = (over: Partial<UploadInput> = {}): UploadInput => ({
      kind: 'text', profileUsername: 'alice', platforms: ['discord', 'telegram'], title: 'hello', media: [], fields: {}, async: false, warnings: [], syncTimeoutMs: 60_000, ...over,
    });
    world.discord.failNext({ kind: 'restricted', reason: 'spam_restricted', until: new Date(world.deps.clock.now().getTime() + 3600_000) }, 'spam');
    const first = await submitUpload(deps, account, post());
    expect(first.upload.results).toMatchObject({ discord: { success: false }, telegram: { success: true } });
    // Discord is paused now: refused at intake, telegram goes out.
    const second = await submitUpload(deps, account, post({ title: 'again' }));
    expect(second.upload.results).toMatchObject({ discord: { success: false, error_code: 'account_restricted' }, telegram: { success: true } });
    const samples = parsePrometheus(await metrics.text());
    expect(valueOf(samples, 'herald_uploads_accepted_total', { network: 'discord' })).toBe(1);
    expect(valueOf(samples, 'herald_uploads_accepted_total', { network: 'telegram' })).toBe(2);
    expect(valueOf(samples, 'herald_uploads_completed_total', { network: 'telegram' })).toBe(2);
    expect(valueOf(samples, 'herald_uploads_completed_total', { network: 'discord' })).toBe(0);
    expect(valueOf(samples, 'herald_uploads_failed_total', { network: 'discord', error_code: 'spam_restricted' })).toBe(1);
    expect(valueOf(samples, 'herald_uploads_failed_total', { network: 'discord', error_code: 'account_restricted' })).toBe(1);
    expect(valueOf(samples, 'herald_account_pauses_total', { network: 'discord', reason: 'spam_restricted' })).toBe(1);
    expect(valueOf(samples, 'herald_publish_latency_seconds_count', { network: 'telegram' })).toBe(2);
  });
});
