/**
 * The sandbox against Herald's own composition: every simulator up and seeded, an env from which
 * buildPlatforms registers all eleven networks against the simulators, OAuth apps that accept
 * Herald's callback, sandbox accounts that can be approved and connected, deterministic restarts.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { approveAuthorization, pkcePair, startSandbox, type Sandbox, SANDBOX_POLL_VARIABLES } from '../../apps/sandbox/main';
import { loadConfig } from '../../apps/shared/config';
import {
  buildPlatforms, clientVariables, loadPlatformSettings, networkVariables, NETWORK_IDS, OAUTH_NETWORKS, oauthCallbackPaths,
  type NetworkId, type OAuthNetwork,
} from '../../apps/shared/platforms';
import type { PlatformRegistry } from '../../core/ports/platform';

const HERALD = 'http://127.0.0.1:9';
let sandbox: Sandbox;
let registry: PlatformRegistry;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'herald-sandbox-'));
  sandbox = await startSandbox({ ports: 'random', heraldPublicBaseUrl: HERALD, processingMs: 50, stateDir });
  registry = buildPlatforms(loadConfig({ ...sandbox.env }).platforms);
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

const origins = () => Object.entries(sandbox.simulators).map(([network, sim]) => [network as NetworkId, sim.origin] as const);
const sorted = (values: Iterable<string>) => [...values].sort();

/** What has to line up across restarts: everything but the (random) ports. */
function portless(s: Sandbox): string {
  let text = JSON.stringify({ env: s.env, accounts: s.accounts });
  for (const [network, sim] of Object.entries(s.simulators)) text = text.split(sim.origin).join(`sim:${network}`);
  // Relays (nostr) are WebSocket URLs on their simulator's port.
  for (const [network, sim] of Object.entries(s.simulators)) text = text.split(sim.origin.replace(/^http/, 'ws')).join(`sim:${network}`);
  return text;
}

const EXPECTED_ENV_KEYS = [
  ...SANDBOX_POLL_VARIABLES,
  'DISCORD_API_BASE', 'TELEGRAM_API_BASE',
  'BLUESKY_API_BASE', 'BLUESKY_VIDEO_BASE', 'BLUESKY_VIDEO_SERVICE_DID',
  'TIKTOK_API_BASE', 'TIKTOK_AUTH_BASE', 'TIKTOK_BUSINESS_API_BASE',
  'INSTAGRAM_API_BASE', 'INSTAGRAM_API_VERSION', 'INSTAGRAM_AUTHORIZE_URL', 'INSTAGRAM_TOKEN_URL',
  'THREADS_API_BASE', 'THREADS_API_VERSION', 'THREADS_AUTHORIZE_URL',
  'FACEBOOK_API_BASE', 'FACEBOOK_VIDEO_API_BASE', 'FACEBOOK_AUTH_BASE',
  'YOUTUBE_API_BASE', 'YOUTUBE_ANALYTICS_API_BASE', 'YOUTUBE_AUTH_BASE', 'YOUTUBE_TOKEN_URL',
  'LINKEDIN_API_BASE', 'LINKEDIN_AUTH_BASE', 'LINKEDIN_ORGANIZATION_PAGES',
  'X_API_BASE', 'X_AUTH_BASE',
  'PINTEREST_API_BASE', 'PINTEREST_AUTH_BASE',
  'GOOGLE_BUSINESS_API_BASE', 'GOOGLE_BUSINESS_ACCOUNTS_BASE', 'GOOGLE_BUSINESS_INFO_BASE', 'GOOGLE_BUSINESS_PERFORMANCE_BASE', 'GOOGLE_BUSINESS_AUTH_BASE', 'GOOGLE_BUSINESS_TOKEN_URL',
  'SNAPCHAT_API_BASE', 'SNAPCHAT_AUTH_BASE',
  ...OAUTH_NETWORKS.flatMap((n) => [clientVariables(n).id, clientVariables(n).secret]),
  'SANDBOX_DISCORD_WEBHOOK_URL', 'SANDBOX_TELEGRAM_BOT_TOKEN', 'SANDBOX_TELEGRAM_CHAT_ID',
  'SANDBOX_BLUESKY_IDENTIFIER', 'SANDBOX_BLUESKY_APP_PASSWORD', 'SANDBOX_PINTEREST_BOARD_ID',
  'SLACK_API_BASE', 'SLACK_WEBHOOK_BASE', 'SANDBOX_SLACK_BOT_TOKEN', 'SANDBOX_SLACK_CHANNEL_ID', 'SANDBOX_SLACK_WEBHOOK_URL',
  'WORDPRESS_ALLOW_HTTP_SITES', 'SANDBOX_WORDPRESS_SITE_URL', 'SANDBOX_WORDPRESS_USERNAME', 'SANDBOX_WORDPRESS_APPLICATION_PASSWORD',
  'LEMMY_ALLOW_HTTP_INSTANCES', 'SANDBOX_LEMMY_INSTANCE_URL', 'SANDBOX_LEMMY_USERNAME', 'SANDBOX_LEMMY_PASSWORD', 'SANDBOX_LEMMY_COMMUNITY',
  'NOSTR_ALLOW_INSECURE_RELAYS', 'SANDBOX_NOSTR_PRIVATE_KEY', 'SANDBOX_NOSTR_RELAYS',
  'SANDBOX_GOOGLE_BUSINESS_LOCATION_ID',
  'MASTODON_ALLOW_PRIVATE_INSTANCES', 'SANDBOX_MASTODON_INSTANCE_URL', 'SANDBOX_MASTODON_ACCESS_TOKEN',
  'DEVTO_API_BASE', 'SANDBOX_DEVTO_API_KEY',
  'HASHNODE_API_URL', 'SANDBOX_HASHNODE_ACCESS_TOKEN', 'SANDBOX_HASHNODE_PUBLICATION_ID',
  'WHOP_API_BASE', 'SANDBOX_WHOP_API_KEY', 'SANDBOX_WHOP_EXPERIENCE_ID',
  'LISTMONK_ALLOW_PRIVATE_INSTANCES', 'SANDBOX_LISTMONK_INSTANCE_URL', 'SANDBOX_LISTMONK_API_USER', 'SANDBOX_LISTMONK_API_TOKEN', 'SANDBOX_LISTMONK_LIST_ID',
];
/** Networks connected with credentials: registered without any client id or secret. */
const CREDENTIAL_NETWORKS = NETWORK_IDS.filter((n) => !OAUTH_NETWORKS.includes(n));

describe('simulators', () => {
  it('runs all of them, each on its own port, each answering', async () => {
    expect(sorted(Object.keys(sandbox.simulators))).toEqual(sorted(NETWORK_IDS));
    const ports = Object.values(sandbox.simulators).map((s) => s.port);
    expect(new Set(ports).size).toBe(NETWORK_IDS.length);
    for (const [network, origin] of origins()) {
      const res = await fetch(`${origin}/__sim/state`);
      expect({ network, status: res.status }).toEqual({ network, status: 200 });
    }
  });

  it('seeds the fixtures the sandbox account of each network needs', () => {
    const { simulators: s, accounts: a } = sandbox;
    expect(s.tiktok.accounts()).toEqual([expect.objectContaining({ openId: a.tiktok.openId, capabilities: ['video_privacy', 'photo_privacy', 'inbox_fallback', 'comments'] })]);
    expect(s.pinterest.boards(a.pinterest.accountId).map((b) => b.id)).toEqual([a.pinterest.boardId]);
    expect(s.facebook.pages()).toEqual([expect.objectContaining({ id: a.facebook.pageId, ownerId: a.facebook.accountId })]);
    expect(s.youtube.channels().map((c) => c.id)).toEqual([a.youtube.channelId]);
    expect(s.linkedin.accounts().map((m) => m.sub)).toEqual([a.linkedin.sub]);
    expect(s.x.accounts().map((u) => u.id)).toEqual([a.x.accountId]);
    expect(s.bluesky.accounts()).toEqual([expect.objectContaining({ did: a.bluesky.did, appPasswords: [a.bluesky.appPassword] })]);
    expect(s.discord.webhooks().map((w) => w.id)).toEqual([a.discord.webhookId]);
  });
});

describe('env', () => {
  it('holds every base URL, client id and secret and the sandbox credentials, nothing empty', () => {
    expect(sorted(Object.keys(sandbox.env))).toEqual(sorted(EXPECTED_ENV_KEYS));
    for (const [key, value] of Object.entries(sandbox.env)) expect({ key, value: value.length > 0 }).toEqual({ key, value: true });
  });

  it('points every URL at a simulator, never at Herald (ops/start.sh waits for every URL in it to answer)', () => {
    const simOrigins = new Set(origins().map(([, origin]) => origin));
    const urls = Object.values(sandbox.env).filter((v) => /^https?:\/\//.test(v));
    expect(urls.length).toBeGreaterThan(20);
    for (const url of urls) expect(simOrigins).toContain(new URL(url).origin);
  });

  it('sets every variable each network reads, but the tuning ones left at their defaults', () => {
    const tuning = ['MASTODON_MAX_PROCESSING_MS', 'MASTODON_UPLOAD_TIMEOUT_MS', 'DISCORD_ALLOWED_WEBHOOK_HOSTS', 'BLUESKY_APP_URL', 'TIKTOK_VIDEO_SOURCE', 'LINKEDIN_VERSION', 'X_KEEP_LINKS', 'YOUTUBE_DAILY_LIMIT_PAUSE_MS',
      'SLACK_ALLOWED_WEBHOOK_HOSTS', 'WORDPRESS_UPLOAD_TIMEOUT_MS', 'LEMMY_UPLOAD_TIMEOUT_MS', 'NOSTR_WEB_URL', 'NOSTR_RELAY_TIMEOUT_MS',
      'SNAPCHAT_UPLOAD_PART_BYTES'];
    const read = NETWORK_IDS.flatMap((n) => networkVariables(n)).filter((v) => !tuning.includes(v));
    expect(sorted(read)).toEqual(sorted(Object.keys(sandbox.env).filter((k) => !k.startsWith('SANDBOX_'))));
  });

  it('is written to sandbox.env (mode 0600) in a form the shell can source', () => {
    const file = path.join(stateDir, 'sandbox.env');
    expect(sandbox.envFile).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const parsed = Object.fromEntries(lines.map((l) => {
      const [, key, raw] = /^([A-Z0-9_]+)=(.*)$/.exec(l)!;
      return [key, raw!.startsWith("'") ? raw!.slice(1, -1).replace(/'\\''/g, "'") : raw];
    }));
    expect(parsed).toEqual(sandbox.env);
  });
});

describe('registry built from the env', () => {
  it('registers every network', () => {
    expect(sorted(registry.list().map((a) => a.descriptor.id))).toEqual(sorted(NETWORK_IDS));
    expect(loadConfig({ ...sandbox.env }).platforms.unconfigured).toEqual([]);
  });

  it('has a media list exactly where the descriptor declares one (the catalogue documents GET /media from the descriptors)', () => {
    const adapters = registry.list();
    expect(adapters.filter((a) => a.mediaLibrary).map((a) => a.descriptor.id).sort())
      .toEqual(adapters.filter((a) => a.descriptor.mediaLibrary).map((a) => a.descriptor.id).sort());
    expect(adapters.filter((a) => a.mediaLibrary).length).toBeGreaterThan(0);
  });

  it('registers an OAuth network only with both its client id and secret', () => {
    const bare = loadPlatformSettings({});
    expect(buildPlatforms(bare).list().map((a) => a.descriptor.id)).toEqual(CREDENTIAL_NETWORKS);
    expect(bare.unconfigured.map((u) => u.network)).toEqual([...OAUTH_NETWORKS]);
    const half = loadPlatformSettings({ HERALD_X_CLIENT_ID: 'id-only', HERALD_YOUTUBE_CLIENT_ID: 'a', HERALD_YOUTUBE_CLIENT_SECRET: 'b' });
    expect(buildPlatforms(half).list().map((a) => a.descriptor.id)).toEqual(NETWORK_IDS.filter((n) => CREDENTIAL_NETWORKS.includes(n) || n === 'youtube'));
    expect(half.unconfigured).toContainEqual({ network: 'x', missing: ['HERALD_X_CLIENT_SECRET'] });
    expect(JSON.stringify(half.unconfigured)).not.toContain('id-only');
  });

  it('refuses a malformed value, naming the variable', () => {
    expect(() => loadPlatformSettings({ TIKTOK_API_BASE: 'ftp://example.com' })).toThrow(/TIKTOK_API_BASE must be an http\(s\) URL/);
    expect(() => loadPlatformSettings({ LINKEDIN_VERSION: '2024' })).toThrow(/LINKEDIN_VERSION/);
    expect(() => loadPlatformSettings({ HERALD_PLATFORM_TIMEOUT_MS: 'soon' })).toThrow(/HERALD_PLATFORM_TIMEOUT_MS/);
  });

  it('lists the callback path of every OAuth network', () => {
    expect(oauthCallbackPaths('herald')).toEqual(OAUTH_NETWORKS.map((network) => ({ network, path: `/api/herald/oauth/${network}/callback` })));
  });
});

describe('OAuth against the simulators', () => {
  /** The id Herald stores as the social account's platformUserId. */
  const expectedUserId = (network: OAuthNetwork): string => {
    const a = sandbox.accounts;
    switch (network) {
      case 'tiktok': return a.tiktok.openId;
      case 'instagram': return a.instagram.accountId;
      case 'threads': return a.threads.accountId;
      case 'facebook': return a.facebook.accountId; // the user; pages are chosen after connecting
      case 'youtube': return a.youtube.channelId;
      case 'linkedin': return a.linkedin.sub;
      case 'x': return a.x.accountId;
      case 'pinterest': return a.pinterest.accountId;
      case 'google_business': return a.google_business.accountId; // the user's personal Business Profile account
      case 'snapchat': return a.snapchat.profileId;
      default: throw new Error(`${network} is not an OAuth network`);
    }
  };

  it.each([...OAUTH_NETWORKS])('%s: authorize URL on the simulator, sandbox account approved, code exchanged', async (network) => {
    const connector = registry.get(network)!.oauth!;
    const redirectUri = `${HERALD}/api/herald/oauth/${network}/callback`;
    expect((sandbox.accounts[network] as { redirectUri?: string }).redirectUri).toBe(redirectUri);
    const pkce = connector.pkce ? pkcePair() : undefined;
    const url = connector.authorizeUrl({ state: `state-${network}`, redirectUri, ...(pkce ? { codeChallenge: pkce.challenge } : {}) });
    expect(new URL(url).origin).toBe(sandbox.simulators[network].origin);

    const back = await approveAuthorization(url);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe(`state-${network}`);
    expect(back.searchParams.get('error')).toBeNull();
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const connected = await connector.exchangeCode({ code, redirectUri, ...(pkce ? { codeVerifier: pkce.verifier } : {}) });
    expect(connected.identity.platformUserId).toBe(expectedUserId(network));
  });

  it('a redirect URI other than Herald\'s callback is refused where the network registers them', async () => {
    for (const network of ['tiktok', 'youtube', 'linkedin', 'x', 'pinterest', 'instagram', 'threads'] as const) {
      const connector = registry.get(network)!.oauth!;
      const url = connector.authorizeUrl({ state: 's', redirectUri: 'http://127.0.0.1:9/elsewhere', ...(connector.pkce ? { codeChallenge: pkcePair().challenge } : {}) });
      const res = await fetch(url, { redirect: 'manual' });
      expect({ network, status: res.status }).toEqual({ network, status: 400 });
    }
  });
});

describe('credentials networks', () => {
  it('connect with the SANDBOX_* values', async () => {
    const { env, accounts } = sandbox;
    const discord = await registry.get('discord')!.credentials!.verify({ webhook_url: env.SANDBOX_DISCORD_WEBHOOK_URL });
    expect(discord.identity.platformUserId).toBe(accounts.discord.webhookId);
    const telegram = await registry.get('telegram')!.credentials!.verify({ bot_token: env.SANDBOX_TELEGRAM_BOT_TOKEN, chat_id: env.SANDBOX_TELEGRAM_CHAT_ID });
    expect(telegram.identity.platformUserId).toBe(String(accounts.telegram.chatId));
    const bluesky = await registry.get('bluesky')!.credentials!.verify({ identifier: env.SANDBOX_BLUESKY_IDENTIFIER, app_password: env.SANDBOX_BLUESKY_APP_PASSWORD });
    expect(bluesky.identity.platformUserId).toBe(accounts.bluesky.did);
    const slack = await registry.get('slack')!.credentials!.verify({ bot_token: env.SANDBOX_SLACK_BOT_TOKEN, channel_id: env.SANDBOX_SLACK_CHANNEL_ID });
    expect(slack.identity.platformUserId).toBe(`${accounts.slack.teamId}/${accounts.slack.channelId}`);
    const slackHook = await registry.get('slack')!.credentials!.verify({ webhook_url: env.SANDBOX_SLACK_WEBHOOK_URL });
    expect(slackHook.credentials.mode).toBe('webhook');
    const wordpress = await registry.get('wordpress')!.credentials!.verify({
      site_url: env.SANDBOX_WORDPRESS_SITE_URL, username: env.SANDBOX_WORDPRESS_USERNAME, application_password: env.SANDBOX_WORDPRESS_APPLICATION_PASSWORD,
    });
    expect(wordpress.credentials.user_id).toBe(String(accounts.wordpress.userId));
    const lemmy = await registry.get('lemmy')!.credentials!.verify({
      instance_url: env.SANDBOX_LEMMY_INSTANCE_URL, username: env.SANDBOX_LEMMY_USERNAME, password: env.SANDBOX_LEMMY_PASSWORD, community: env.SANDBOX_LEMMY_COMMUNITY,
    });
    expect(lemmy.credentials.community_id).toBe(String(accounts.lemmy.communityId));
    const nostr = await registry.get('nostr')!.credentials!.verify({ private_key: env.SANDBOX_NOSTR_PRIVATE_KEY, relays: env.SANDBOX_NOSTR_RELAYS });
    expect(nostr.identity.platformUserId).toBe(accounts.nostr.publicKey);
    const mastodon = await registry.get('mastodon')!.credentials!.verify({ instance_url: env.SANDBOX_MASTODON_INSTANCE_URL, access_token: env.SANDBOX_MASTODON_ACCESS_TOKEN });
    expect(mastodon.identity.platformUserId).toBe(`${accounts.mastodon.accountId}@${new URL(env.SANDBOX_MASTODON_INSTANCE_URL!).host}`);
    const devto = await registry.get('devto')!.credentials!.verify({ api_key: env.SANDBOX_DEVTO_API_KEY });
    expect(devto.identity.platformUserId).toBe(String(accounts.devto.userId));
    const hashnode = await registry.get('hashnode')!.credentials!.verify({ access_token: env.SANDBOX_HASHNODE_ACCESS_TOKEN, publication_id: env.SANDBOX_HASHNODE_PUBLICATION_ID });
    expect(hashnode.identity.platformUserId).toBe(accounts.hashnode.publicationId);
    const whop = await registry.get('whop')!.credentials!.verify({ api_key: env.SANDBOX_WHOP_API_KEY, experience_id: env.SANDBOX_WHOP_EXPERIENCE_ID });
    expect(whop.identity.platformUserId).toBe(accounts.whop.experienceId);
    const listmonk = await registry.get('listmonk')!.credentials!.verify({
      instance_url: env.SANDBOX_LISTMONK_INSTANCE_URL, api_user: env.SANDBOX_LISTMONK_API_USER, api_token: env.SANDBOX_LISTMONK_API_TOKEN, list_ids: env.SANDBOX_LISTMONK_LIST_ID,
    });
    expect(listmonk.credentials.list_ids).toBe(String(accounts.listmonk.listId));
  });
});

describe('close and restart', () => {
  it('close() frees every port; a restart hands out the same ids, secrets and credentials', async () => {
    const before = portless(sandbox);
    const ports = Object.values(sandbox.simulators).map((s) => s.port);
    await sandbox.close();
    for (const port of ports) {
      await new Promise<void>((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
      });
    }

    const again = await startSandbox({ ports: 'random', heraldPublicBaseUrl: HERALD, processingMs: 50 });
    try {
      expect(again.envFile).toBeUndefined();
      expect(portless(again)).toBe(before);
    } finally {
      await again.close();
    }
  });
});
