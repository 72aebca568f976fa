import { Client, Connection } from '@temporalio/client';
import { MongoClient } from 'mongodb';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { ConnectionEvent } from '../../core/ports/notifications';
import type { Storage } from '../../core/ports/storage';
import { workflowIds } from '../../core/ports/workflow-names';
import { createMongoStorage } from '../../adapters/mongo/storage';
import { createMongoNotificationOutbox } from '../../adapters/mongo/notifications/outbox';
import { createTemporalAccountPauses } from '../../adapters/temporal/account-pauses';
import { clientVariables } from '../../adapters/platforms/kit/network';
import { startTikTokSimulator, type TikTokSimulator } from '../../ops/simulators/tiktok/simulator';
import { sandboxNetwork as tiktokSandbox } from '../../ops/simulators/tiktok/sandbox';
import { eventually, freePort, within } from '../support/stack';
import { useHerald } from '../support/e2e';

jest.setTimeout(300_000);

const PROFILE = 'lena';
const EMAIL = 'lifecycle@herald.dev';
/** The simulator's access tokens live this long; Herald renews them MARGIN before they expire. */
const TOKEN_TTL_SECONDS = 20;
const MARGIN_MS = 12_000;
/** Generous: the test waits on state, never on the machine being fast. */
const WAIT_MS = 120_000;

/**
 * The real stack with a TikTok simulator whose tokens live 20 s (not the sandbox's: its tokens
 * live hours), an operator account and a profile; registered in the calling describe block.
 */
function useLifecycle(extraEnv: Record<string, string> = {}) {
  let port = 0;
  let sim!: TikTokSimulator;
  let seeded!: ReturnType<typeof tiktokSandbox.seed>;
  beforeAll(async () => {
    port = await freePort();
    sim = await startTikTokSimulator({ port: 0, seed: 'lifecycle', processingMs: 50, accessTokenTtlSeconds: TOKEN_TTL_SECONDS });
    seeded = tiktokSandbox.seed(sim, `http://127.0.0.1:${port}/api/herald/oauth/tiktok/callback`);
  });
  afterAll(async () => {
    await sim?.close();
  });
  const herald = useHerald({
    env: () => {
      const names = clientVariables('tiktok');
      return {
        HERALD_API_PORT: String(port), HERALD_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        TIKTOK_API_BASE: seeded.options.apiBase!, TIKTOK_AUTH_BASE: seeded.options.authBase!, TIKTOK_BUSINESS_API_BASE: seeded.options.businessApiBase!,
        [names.id]: seeded.client!.clientId, [names.secret]: seeded.client!.clientSecret,
        HERALD_REFRESH_AHEAD_MARGIN_MS: String(MARGIN_MS), HERALD_REFRESH_AHEAD_MIN_PERIOD_MS: '2000', HERALD_REFRESH_AHEAD_RETRY_MS: '2000',
        ...extraEnv,
      };
    },
    account: { email: EMAIL },
    profiles: [PROFILE],
  });
  const { api, stack } = herald;
  let accountId = '';
  let temporal!: { connection: Connection; client: Client };
  let mongo: MongoClient | undefined;
  let storage!: Storage;
  let outbox!: Awaited<ReturnType<typeof createMongoNotificationOutbox>>;
  const stored = async (): Promise<ConnectedAccount | null> => storage.connectedAccounts.find(accountId, PROFILE, 'tiktok');
  beforeAll(async () => {
    accountId = (await api.get('/api/herald/me')).body.account_id as string;
    const connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
    temporal = { connection, client: new Client({ connection, namespace: 'default' }) };
    mongo = await MongoClient.connect(stack.env.MONGODB_URI!, { serverSelectionTimeoutMS: 5000 });
    storage = await createMongoStorage(mongo.db());
    outbox = await createMongoNotificationOutbox(mongo.db());
  });
  herald.beforeStop(async () => {
    const c = await stored().catch(() => null);
    if (c) {
      for (const id of [workflowIds.connectionRefresh(c.id), workflowIds.accountPause(c.id)]) {
        await temporal.client.workflow.getHandle(id).terminate('test over').catch(() => undefined);
      }
    }
    await temporal?.connection.close();
    await mongo?.close();
  });
  return {
    get sim() { return sim; }, get openId() { return seeded.account.openId; }, stack, api, get temporal() { return temporal; }, get storage() { return storage; }, stored,
    events: async (name?: string): Promise<ConnectionEvent[]> =>
      (await outbox.list(accountId)).map((e) => e.event as ConnectionEvent).filter((e) => e.event.startsWith('social_account_') && (!name || e.event === name)),
    refreshRequests: () => sim.requests.filter((r) => r.path === '/v2/oauth/token/' && (r.body as Record<string, string>)?.grant_type === 'refresh_token'),
    connectTikTok: () => herald.connect('tiktok', { profile: PROFILE }),
  };
}

type Lifecycle = ReturnType<typeof useLifecycle>;

/**
 * The connected-account lifecycle on the real stack (API and worker daemons, Temporal, FerretDB,
 * Redis) against a TikTok simulator whose access tokens live 20 seconds: refresh-ahead keeps the
 * account alive without a post, a revoked refresh token makes it reauth_required, a reconnect
 * brings it back (ending its pause), and a manual disconnect removes it; each transition's event
 * is in the outbox exactly once.
 */
describe('connected-account lifecycle', () => {
  const w: Lifecycle = useLifecycle();
  const { stack, api } = w;
  let sim: TikTokSimulator;
  let openId: string;
  let temporal: Lifecycle['temporal'];
  let storage: Storage;

  const stored = () => w.stored();
  const credentialsOf = (c: ConnectedAccount) => c.sealedCredentials;
  const events = (name?: string) => w.events(name);
  const refreshRequests = () => w.refreshRequests();
  const connectTikTok = () => w.connectTikTok();

  beforeAll(() => {
    ({ sim, openId, temporal, storage } = w);
  });

  it('connecting emits social_account_connected and starts the refresh-ahead workflow', async () => {
    await connectTikTok();
    const connection = (await stored())!;
    expect(connection.status).toBe('connected');
    expect(await events()).toEqual([expect.objectContaining({
      event: 'social_account_connected', status: 'connected', user_email: EMAIL, platform: 'tiktok', profile_username: PROFILE,
      account_name: connection.handle, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })]);
    const described = await temporal.client.workflow.getHandle(workflowIds.connectionRefresh(connection.id)).describe();
    expect(described.status.name).toBe('RUNNING');
    // The worker's start-up back-fill ran too.
    const ensured = (out: string) => out.split('\n').some((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; accounts?: unknown };
        return entry.msg === 'refresh-ahead ensured' && typeof entry.accounts === 'number';
      } catch {
        return false;
      }
    });
    await eventually(async () => stack.worker!.output.join(''), ensured, WAIT_MS, 500);
  });

  it('refresh-ahead keeps a 20-second token alive for several periods without a post', async () => {
    const connectedAt = Date.now();
    const first = credentialsOf((await stored())!);
    const before = refreshRequests().length;
    // Three renewals: the token the account was connected with is long expired by then.
    await eventually(async () => refreshRequests().length - before, (n) => n >= 3, WAIT_MS, 500);
    await eventually(async () => Date.now() - connectedAt, (ms) => ms > TOKEN_TTL_SECONDS * 1000, WAIT_MS, 500);
    const now = (await stored())!;
    expect(now.status).toBe('connected');
    expect(credentialsOf(now)).not.toBe(first);
    // What the profile shows, and no post was made meanwhile.
    const profile = await api.get(`/api/herald/users/${PROFILE}`);
    expect(profile.body.profile.social_accounts.tiktok).toMatchObject({ reauth_required: false });
    expect(sim.posts()).toEqual([]);
    expect(await events('social_account_reauth_required')).toEqual([]);
  });

  it('a revoked refresh token: reauth_required and its event, once', async () => {
    sim.revokeTokens(openId);
    await eventually(async () => (await stored())?.status, (s) => s === 'reauth_required', WAIT_MS, 500);
    await eventually(() => events('social_account_reauth_required'), (e) => e.length === 1, WAIT_MS, 500);
    expect(await events('social_account_reauth_required')).toEqual([expect.objectContaining({
      status: 'reauth_required', reason: 'token_refresh_threshold_exceeded', user_email: EMAIL, platform: 'tiktok', profile_username: PROFILE,
    })]);
    const profile = await api.get(`/api/herald/users/${PROFILE}`);
    expect(profile.body.profile.social_accounts.tiktok).toMatchObject({ reauth_required: true });
    // The workflow now waits for a reconnect: no more refresh attempts, no second event.
    const attempts = refreshRequests().length;
    await new Promise((r) => setTimeout(r, 5000));
    expect(refreshRequests().length).toBe(attempts);
    expect(await events('social_account_reauth_required')).toHaveLength(1);
  });

  it('reconnecting: connected again with its event, the flag cleared, the account pause ended', async () => {
    const before = (await stored())!;
    // The account is also paused by a network verdict (an hour): the reconnect ends that too.
    const restriction = { reason: 'spam_risk', until: new Date(Date.now() + 3600_000) };
    await storage.connectedAccounts.setRestriction(before.id, restriction, new Date());
    await createTemporalAccountPauses(temporal.client, { taskQueue: stack.env.HERALD_TASK_QUEUE! }).paused(before, restriction);
    const pause = temporal.client.workflow.getHandle(workflowIds.accountPause(before.id));
    expect((await pause.describe()).status.name).toBe('RUNNING');

    await connectTikTok();
    const after = (await stored())!;
    expect(after).toMatchObject({ id: before.id, status: 'connected' });
    expect(after).not.toHaveProperty('restriction');
    await within(WAIT_MS, 'the account pause workflow', pause.result());
    expect(await events('social_account_connected')).toHaveLength(2);
    const profile = await api.get(`/api/herald/users/${PROFILE}`);
    expect(profile.body.profile.social_accounts.tiktok).toMatchObject({ reauth_required: false });
    // Refresh-ahead picked the new generation up: it renews the new tokens again.
    const attempts = refreshRequests().length;
    await eventually(async () => refreshRequests().length - attempts, (n) => n >= 1, WAIT_MS, 500);
    expect((await stored())!.status).toBe('connected');
  });

  it('manual disconnect over HTTP: the connection gone, its event once, refresh-ahead ended', async () => {
    const connection = (await stored())!;
    expect((await api.delete(`/api/herald/users/${PROFILE}/social-accounts/x`)).body).toMatchObject({ error_code: 'ACCOUNT_NOT_CONNECTED' });
    expect((await api.delete(`/api/herald/users/nobody/social-accounts/tiktok`))).toMatchObject({ status: 404, body: { error_code: 'PROFILE_NOT_FOUND' } });
    expect((await api.delete(`/api/herald/users/${PROFILE}/social-accounts/myspace`))).toMatchObject({ status: 400, body: { error_code: 'platform_not_supported' } });

    const res = await api.delete(`/api/herald/users/${PROFILE}/social-accounts/tiktok`);
    expect(res).toMatchObject({ status: 200, body: { success: true, profile_username: PROFILE, platform: 'tiktok', status: 'disconnected' } });
    expect(await stored()).toBeNull();
    const again = await api.delete(`/api/herald/users/${PROFILE}/social-accounts/tiktok`);
    expect(again).toMatchObject({ status: 404, body: { success: false, error_code: 'ACCOUNT_NOT_CONNECTED' } });

    expect(await events('social_account_disconnected')).toEqual([expect.objectContaining({
      status: 'disconnected', reason: 'manual_disconnect', user_email: EMAIL, platform: 'tiktok', profile_username: PROFILE, account_name: connection.handle,
    })]);
    await within(WAIT_MS, 'the refresh-ahead workflow', temporal.client.workflow.getHandle(workflowIds.connectionRefresh(connection.id)).result());
    const profile = await api.get(`/api/herald/users/${PROFILE}`);
    expect(profile.body.profile.social_accounts.tiktok ?? null).toBeFalsy();
    expect((await events()).map((e) => e.event)).toEqual([
      'social_account_connected', 'social_account_reauth_required', 'social_account_connected', 'social_account_disconnected',
    ]);
  });
});

/**
 * account_blocked: an account left reauth_required is disconnected automatically after
 * HERALD_REAUTH_BLOCKED_AFTER_MS (30 days in production; seconds here: the duration is an input
 * of the refresh-ahead workflow, so the test does not wait a month).
 */
describe('automatic disconnect after persistent authentication failure', () => {
  const BLOCKED_AFTER_MS = 10_000;
  const w = useLifecycle({ HERALD_REAUTH_BLOCKED_AFTER_MS: String(BLOCKED_AFTER_MS) });

  it('reauth_required, then disconnected with reason account_blocked, each event once, refresh-ahead ended', async () => {
    await w.connectTikTok();
    const connection = (await w.stored())!;
    expect(connection.status).toBe('connected');
    w.sim.revokeTokens(w.openId);
    await eventually(() => w.events('social_account_reauth_required'), (e) => e.length === 1, WAIT_MS, 500);
    const flaggedAt = Date.parse((await w.events('social_account_reauth_required'))[0]!.created_at);

    await within(WAIT_MS, 'the refresh-ahead workflow', w.temporal.client.workflow.getHandle(workflowIds.connectionRefresh(connection.id)).result());
    expect(await w.stored()).toBeNull();
    const disconnected = await w.events('social_account_disconnected');
    expect(disconnected).toEqual([expect.objectContaining({
      status: 'disconnected', reason: 'account_blocked', user_email: EMAIL, platform: 'tiktok', profile_username: PROFILE, account_name: connection.handle,
    })]);
    // Not at once: after the configured time (the workflow's durable timer), measured on the events' own clocks.
    expect(Date.parse(disconnected[0]!.created_at) - flaggedAt).toBeGreaterThanOrEqual(BLOCKED_AFTER_MS / 2);
    expect((await w.events()).map((e) => e.event)).toEqual(['social_account_connected', 'social_account_reauth_required', 'social_account_disconnected']);
    const profile = await w.api.get(`/api/herald/users/${PROFILE}`);
    expect(profile.body.profile.social_accounts.tiktok ?? null).toBeFalsy();
  });
});
