/**
 * The sandbox: a loopback simulator of every network Herald publishes to, seeded with one app (or
 * client) per OAuth network whose redirect URI is Herald's callback, one end-user account per
 * network (approvable on the simulator's authorize page), a Discord webhook and a Telegram bot
 * administering a channel; and an `env` telling the API and worker where all of it is.
 *
 * Seeding is deterministic (fixed seed, same calls in the same order), so a restarted sandbox hands
 * out the same app ids and secrets, account ids, webhook, bot token and Bluesky app password. What a
 * simulator keeps only in memory does not survive a restart: tokens it issued (OAuth access and
 * refresh tokens, Bluesky sessions), posts, uploaded media. Accounts connected by OAuth, and
 * Bluesky, must be connected again after a restart; Discord and Telegram keep working.
 *
 * As a daemon (`node dist/apps/sandbox/main.js`) it listens on fixed ports 4101..4111 and writes
 * `${HERALD_STATE_DIR:-.herald}/sandbox.env` (mode 0600), which ops/start.sh loads into the API and
 * worker.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startDiscordSimulator, type DiscordSimulator } from '../../ops/simulators/discord';
import { startTelegramSimulator, type TelegramSimulator } from '../../ops/simulators/telegram';
import { startTikTokSimulator, type TikTokSimulator } from '../../ops/simulators/tiktok';
import { startInstagramSimulator, type InstagramSimulator } from '../../ops/simulators/instagram';
import { startThreadsSimulator, type ThreadsSimulator } from '../../ops/simulators/threads';
import { startFacebookSimulator, type FacebookSimulator } from '../../ops/simulators/facebook';
import { startYoutubeSimulator, type YoutubeSimulator } from '../../ops/simulators/youtube';
import { startLinkedInSimulator, type LinkedInSimulator } from '../../ops/simulators/linkedin';
import { startXSimulator, type XSimulator } from '../../ops/simulators/x';
import { startPinterestSimulator, type PinterestSimulator } from '../../ops/simulators/pinterest';
import { startBlueskySimulator, type BlueskySimulator } from '../../ops/simulators/bluesky';
import { loadConfig } from '../shared/config';
import { OAUTH_NETWORKS, clientVariables, oauthCallbackUrl, type NetworkId, type OAuthNetwork } from '../shared/platforms';

/** Changing it changes every sandbox id and secret: connected sandbox accounts would need reconnecting. */
export const SANDBOX_SEED = 'herald-sandbox-v1';

/** Daemon ports; discord and telegram kept theirs from the first release. */
export const SANDBOX_PORTS: Record<NetworkId, number> = {
  discord: 4101, telegram: 4102, tiktok: 4103, instagram: 4104, threads: 4105, facebook: 4106,
  youtube: 4107, linkedin: 4108, x: 4109, pinterest: 4110, bluesky: 4111,
};

/** Time simulators take to "process" media: long enough that the Temporal UI shows the waits. */
export const SANDBOX_PROCESSING_MS = 1000;

/** How often Herald polls each network's processing (see apps/shared/platforms.ts). */
export const SANDBOX_POLL_VARIABLES = [
  'TIKTOK_POLL_MS', 'TIKTOK_POST_ID_POLL_MS', 'INSTAGRAM_POLL_MS', 'THREADS_POLL_MS', 'FACEBOOK_POLL_MS', 'YOUTUBE_POLL_MS', 'LINKEDIN_POLL_MS', 'BLUESKY_POLL_MS',
] as const;

/** Keys of `env` whose values are credentials: written to sandbox.env, never printed. */
export const SANDBOX_SECRET_KEYS: ReadonlySet<string> = new Set([
  ...OAUTH_NETWORKS.map((n) => clientVariables(n).secret),
  'SANDBOX_DISCORD_WEBHOOK_URL', 'SANDBOX_TELEGRAM_BOT_TOKEN', 'SANDBOX_BLUESKY_APP_PASSWORD',
]);

export interface SandboxOptions {
  /** `fixed`: SANDBOX_PORTS (the daemon); `random`: any free ports (tests). */
  ports: 'fixed' | 'random';
  /** When set, `sandbox.env` is written there (mode 0600). */
  stateDir?: string;
  /** Herald's public address: OAuth apps register `${heraldPublicBaseUrl}/api/<namespace>/oauth/<net>/callback`. */
  heraldPublicBaseUrl: string;
  /** Default `herald`. */
  namespace?: string;
  /** Media processing time of the simulators. Default SANDBOX_PROCESSING_MS. */
  processingMs?: number;
}

export interface SandboxSimulators {
  discord: DiscordSimulator;
  telegram: TelegramSimulator;
  tiktok: TikTokSimulator;
  instagram: InstagramSimulator;
  threads: ThreadsSimulator;
  facebook: FacebookSimulator;
  youtube: YoutubeSimulator;
  linkedin: LinkedInSimulator;
  x: XSimulator;
  pinterest: PinterestSimulator;
  bluesky: BlueskySimulator;
}

/** The app of an OAuth network: its client id and the one redirect URI it accepts (Herald's callback). */
interface OAuthApp { clientId: string; redirectUri: string }

/** What tests and people need to drive the seeded fixtures (issueAuthCode, boards, …). */
export interface SandboxAccounts {
  discord: { webhookId: string; webhookUrl: string };
  telegram: { botId: number; botUsername: string; chatId: number; chatUsername: string };
  bluesky: { did: string; handle: string; appPassword: string };
  tiktok: OAuthApp & { openId: string; username: string; capabilities: string[] };
  instagram: OAuthApp & { accountId: string; username: string };
  threads: OAuthApp & { accountId: string; username: string };
  facebook: OAuthApp & { accountId: string; pageId: string; pageName: string };
  youtube: OAuthApp & { channelId: string; handle: string };
  linkedin: OAuthApp & { sub: string; urn: string };
  x: OAuthApp & { accountId: string; username: string };
  pinterest: OAuthApp & { accountId: string; username: string; boardId: string };
}

export interface Sandbox {
  /** Every base URL, client id and secret, and the SANDBOX_* credentials; load it into the API and worker. */
  env: Record<string, string>;
  simulators: SandboxSimulators;
  accounts: SandboxAccounts;
  /** The sandbox.env written, when `stateDir` was given. */
  envFile?: string;
  close(): Promise<void>;
}

type Starters = { [K in NetworkId]: (port: number, seed: string, processingMs: number) => Promise<SandboxSimulators[K]> };

const STARTERS: Starters = {
  discord: (port, seed) => startDiscordSimulator({ port, seed }),
  telegram: (port, seed) => startTelegramSimulator({ port, seed }),
  tiktok: (port, seed, processingMs) => startTikTokSimulator({ port, seed, processingMs }),
  instagram: (port, seed, processingMs) => startInstagramSimulator({ port, seed, processingMs }),
  threads: (port, seed, processingMs) => startThreadsSimulator({ port, seed, processingMs }),
  facebook: (port, seed, processingMs) => startFacebookSimulator({ port, seed, processingMs }),
  youtube: (port, seed, processingMs) => startYoutubeSimulator({ port, seed, processingMs }),
  linkedin: (port, seed, processingMs) => startLinkedInSimulator({ port, seed, processingMs }),
  x: (port, seed, processingMs) => startXSimulator({ port, seed, processingMs }),
  pinterest: (port, seed, processingMs) => startPinterestSimulator({ port, seed, processingMs }),
  bluesky: (port, seed, processingMs) => startBlueskySimulator({ port, seed, processingMs }),
};

/** Starts all eleven simulators, or none: on a failure the ones already up are closed again. */
async function startSimulators(opts: SandboxOptions, processingMs: number): Promise<SandboxSimulators> {
  const networks = Object.keys(STARTERS) as NetworkId[];
  const started = await Promise.allSettled(networks.map((network) => {
    const port = opts.ports === 'fixed' ? SANDBOX_PORTS[network] : 0;
    return STARTERS[network](port, SANDBOX_SEED, processingMs).catch((err: unknown) => {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`${network} simulator${port ? ` on port ${port}` : ''}: ${reason}`);
    });
  }));
  const failures = started.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  if (failures.length) {
    await Promise.allSettled(started.flatMap((r) => (r.status === 'fulfilled' ? [r.value.close()] : [])));
    throw new Error(`sandbox: ${failures.map((e) => e.message).join('; ')}`);
  }
  return Object.fromEntries(networks.map((n, i) => [n, (started[i] as PromiseFulfilledResult<unknown>).value])) as unknown as SandboxSimulators;
}

/**
 * Creates the fixtures. Every simulator derives ids and secrets from the seed and a per-kind
 * counter, so these calls must stay in this order per simulator: append, never reorder.
 */
function seed(sims: SandboxSimulators, callback: (network: OAuthNetwork) => string): { env: Record<string, string>; accounts: SandboxAccounts } {
  const { discord, telegram, tiktok, instagram, threads, facebook, youtube, linkedin, x, pinterest, bluesky } = sims;

  // Credentials networks (discord and telegram exactly as in the first release).
  const webhook = discord.createWebhook({ name: 'Herald Sandbox' });
  const bot = telegram.createBot({ username: 'herald_sandbox_bot', firstName: 'Herald Sandbox' });
  const channel = telegram.createChat({ type: 'channel', title: 'Herald Sandbox', username: 'herald_sandbox' });
  telegram.setMember(channel.id, bot.id, 'administrator', { can_post_messages: true });
  const sky = bluesky.createAccount({ handle: 'herald-sandbox.test', displayName: 'Herald Sandbox' });

  // OAuth networks: one app whose only redirect URI is Herald's callback, one end user.
  const tiktokClient = tiktok.createClient({ redirectUris: [callback('tiktok')] });
  const tiktokUser = tiktok.createAccount({
    username: 'herald.sandbox', displayName: 'Herald Sandbox',
    // {video_privacy, inbox_fallback} and {music, location, cover_image, draft, …} never meet on one connection.
    capabilities: ['video_privacy', 'photo_privacy', 'inbox_fallback', 'comments'],
  });

  const instagramApp = instagram.createApp({ redirectUris: [callback('instagram')] });
  const instagramUser = instagram.createAccount({ username: 'herald.sandbox', name: 'Herald Sandbox' });

  const threadsApp = threads.createApp({ redirectUris: [callback('threads')] });
  const threadsUser = threads.createAccount({ username: 'herald.sandbox', name: 'Herald Sandbox' });

  // Facebook's app comes with the simulator (its login dialog takes any redirect URI).
  const facebookUser = facebook.createAccount({ name: 'Herald Sandbox', pages: ['Herald Sandbox Page'] });
  const facebookPage = facebookUser.pages[0]!;

  const youtubeClient = youtube.createClient({ redirectUris: [callback('youtube')] });
  const youtubeChannel = youtube.createAccount({ title: 'Herald Sandbox', handle: '@heraldsandbox' });

  const linkedinClient = linkedin.registerClient({ redirectUris: [callback('linkedin')] });
  const linkedinMember = linkedin.createAccount({ name: 'Herald Sandbox', email: 'sandbox@herald.dev' });

  const xClient = x.createClient({ name: 'Herald Sandbox', redirectUris: [callback('x')] });
  const xUser = x.createAccount({ username: 'herald_sandbox', name: 'Herald Sandbox' });

  const pinterestApp = pinterest.createApp({ name: 'Herald Sandbox', redirectUris: [callback('pinterest')] });
  const pinterestUser = pinterest.createAccount({ username: 'herald_sandbox', businessName: 'Herald Sandbox' });
  const board = pinterest.createBoard(pinterestUser.id, { name: 'Herald Sandbox', description: 'Pins published through the Herald sandbox' });

  const clients: Record<OAuthNetwork, { clientId: string; clientSecret: string }> = {
    tiktok: { clientId: tiktokClient.clientKey, clientSecret: tiktokClient.clientSecret },
    instagram: instagramApp,
    threads: threadsApp,
    facebook: { clientId: facebook.app.id, clientSecret: facebook.app.secret },
    youtube: youtubeClient,
    linkedin: linkedinClient,
    x: { clientId: xClient.clientId, clientSecret: xClient.clientSecret ?? '' },
    pinterest: pinterestApp,
  };
  const app = (network: OAuthNetwork): OAuthApp => ({ clientId: clients[network].clientId, redirectUri: callback(network) });

  const env: Record<string, string> = {
    DISCORD_API_BASE: discord.baseUrl,
    TELEGRAM_API_BASE: telegram.baseUrl,
    BLUESKY_API_BASE: bluesky.serviceUrl,
    BLUESKY_VIDEO_BASE: bluesky.videoBaseUrl,
    BLUESKY_VIDEO_SERVICE_DID: bluesky.videoServiceDid,
    TIKTOK_API_BASE: tiktok.apiBase,
    TIKTOK_AUTH_BASE: tiktok.authBase,
    TIKTOK_BUSINESS_API_BASE: tiktok.businessApiBase,
    INSTAGRAM_API_BASE: instagram.apiBase,
    INSTAGRAM_API_VERSION: instagram.apiVersion,
    INSTAGRAM_AUTHORIZE_URL: instagram.authorizeUrl,
    INSTAGRAM_TOKEN_URL: instagram.tokenUrl,
    THREADS_API_BASE: threads.apiBase,
    THREADS_API_VERSION: threads.apiVersion,
    THREADS_AUTHORIZE_URL: threads.authorizeUrl,
    FACEBOOK_API_BASE: facebook.baseUrl,
    FACEBOOK_VIDEO_API_BASE: facebook.baseUrl,
    FACEBOOK_AUTH_BASE: facebook.baseUrl,
    YOUTUBE_API_BASE: youtube.apiBase,
    YOUTUBE_AUTH_BASE: youtube.authBase,
    YOUTUBE_TOKEN_URL: youtube.tokenUrl,
    LINKEDIN_API_BASE: linkedin.apiBase,
    LINKEDIN_AUTH_BASE: linkedin.authBase,
    X_API_BASE: x.origin,
    X_AUTH_BASE: x.origin,
    PINTEREST_API_BASE: pinterest.apiBase,
    PINTEREST_AUTH_BASE: pinterest.origin,
  };
  for (const [network, client] of Object.entries(clients) as Array<[OAuthNetwork, { clientId: string; clientSecret: string }]>) {
    const names = clientVariables(network);
    env[names.id] = client.clientId;
    env[names.secret] = client.clientSecret;
  }
  Object.assign(env, {
    SANDBOX_DISCORD_WEBHOOK_URL: webhook.url,
    SANDBOX_TELEGRAM_BOT_TOKEN: bot.token,
    SANDBOX_TELEGRAM_CHAT_ID: String(channel.id),
    SANDBOX_BLUESKY_IDENTIFIER: sky.handle,
    SANDBOX_BLUESKY_APP_PASSWORD: sky.appPassword,
    SANDBOX_PINTEREST_BOARD_ID: board.id,
  });

  const accounts: SandboxAccounts = {
    discord: { webhookId: webhook.id, webhookUrl: webhook.url },
    telegram: { botId: bot.id, botUsername: 'herald_sandbox_bot', chatId: channel.id, chatUsername: 'herald_sandbox' },
    bluesky: { did: sky.did, handle: sky.handle, appPassword: sky.appPassword },
    tiktok: { ...app('tiktok'), openId: tiktokUser.openId, username: tiktokUser.username, capabilities: tiktokUser.capabilities },
    instagram: { ...app('instagram'), accountId: instagramUser.id, username: instagramUser.username },
    threads: { ...app('threads'), accountId: threadsUser.id, username: threadsUser.username },
    facebook: { ...app('facebook'), accountId: facebookUser.id, pageId: facebookPage.id, pageName: facebookPage.name },
    youtube: { ...app('youtube'), channelId: youtubeChannel.id, handle: youtubeChannel.handle },
    linkedin: { ...app('linkedin'), sub: linkedinMember.sub, urn: linkedinMember.urn },
    x: { ...app('x'), accountId: xUser.id, username: xUser.username },
    pinterest: { ...app('pinterest'), accountId: pinterestUser.id, username: pinterestUser.username, boardId: board.id },
  };
  return { env, accounts };
}

/** KEY=value lines for `set -a; . file`, Node's --env-file and dotenv: bare when shell-safe, else single-quoted. */
export function formatEnvFile(env: Record<string, string>): string {
  return Object.entries(env).map(([key, value]) =>
    /^[A-Za-z0-9_./:@%+,=-]*$/.test(value) ? `${key}=${value}\n` : `${key}='${value.replace(/'/g, `'\\''`)}'\n`).join('');
}

async function writeEnvFile(stateDir: string, env: Record<string, string>): Promise<string> {
  await mkdir(stateDir, { recursive: true });
  const envFile = join(stateDir, 'sandbox.env');
  // Written whole then renamed, so a reader never sees half a file.
  const tmp = `${envFile}.${process.pid}.tmp`;
  await writeFile(tmp, formatEnvFile(env), { mode: 0o600 });
  await rename(tmp, envFile);
  return envFile;
}

export async function startSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const namespace = opts.namespace ?? 'herald';
  const sims = await startSimulators(opts, opts.processingMs ?? SANDBOX_PROCESSING_MS);
  const close = async () => {
    await Promise.allSettled(Object.values(sims).map((s: { close(): Promise<void> }) => s.close()));
  };
  try {
    const { env: seeded, accounts } = seed(sims, (network) => oauthCallbackUrl(opts.heraldPublicBaseUrl, namespace, network));
    // Simulators finish processing in `processingMs`: Herald polls them about as often, not at production pace.
    const pollMs = String(Math.max(100, opts.processingMs ?? SANDBOX_PROCESSING_MS));
    const env = { ...seeded, ...Object.fromEntries(SANDBOX_POLL_VARIABLES.map((v) => [v, pollMs])) };
    const envFile = opts.stateDir ? await writeEnvFile(opts.stateDir, env) : undefined;
    return { env, simulators: sims, accounts, ...(envFile ? { envFile } : {}), close };
  } catch (err) {
    await close();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Driving an authorize page like a person would (tests, scripts)

const decodeHtml = (s: string) => s
  .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
  .replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-zA-Z_-]+)(?:="([^"]*)")?/g)) out[m[1]!.toLowerCase()] = decodeHtml(m[2] ?? '');
  return out;
}

/**
 * Opens a simulator's authorize page and answers it as the end user: the first (pre-selected)
 * sandbox account, then Allow (or Cancel with `decision: 'deny'`). Resolves to the URL the network
 * sends the browser back to (Herald's callback with `code` and `state`, or an `error`).
 */
export async function approveAuthorization(authorizeUrl: string, opts: { decision?: 'allow' | 'deny' } = {}): Promise<URL> {
  const page = await fetch(authorizeUrl, { redirect: 'manual' });
  const location = page.headers.get('location');
  if (page.status >= 300 && page.status < 400 && location) return new URL(location, authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`authorize page answered ${page.status}: ${html.replace(/<[^>]+>/g, ' ').trim().slice(0, 200)}`);
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error('authorize page has no form');
  const fields = new URLSearchParams();
  for (const m of form[2]!.matchAll(/<input\b([^>]*)>/gi)) {
    const a = attributes(m[1]!);
    if (!a.name) continue;
    if (a.type === 'radio' || a.type === 'checkbox') {
      if ('checked' in a) fields.append(a.name, a.value ?? 'on');
    } else fields.append(a.name, a.value ?? '');
  }
  for (const m of form[2]!.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)) {
    const name = attributes(m[1]!).name;
    const option = /<option\b([^>]*)>/i.exec(m[2]!);
    if (name && option) fields.append(name, attributes(option[1]!).value ?? '');
  }
  // Every simulator puts the approving button first and the cancelling one last.
  const buttons = [...form[2]!.matchAll(/<button\b([^>]*)>/gi)].map((m) => attributes(m[1]!)).filter((a) => a.name);
  const button = opts.decision === 'deny' ? buttons[buttons.length - 1] : buttons[0];
  if (!button) throw new Error('authorize page has no button');
  fields.append(button.name!, button.value ?? '');
  const action = new URL(attributes(form[1]!).action || authorizeUrl, authorizeUrl);
  const answer = await fetch(action, {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString(),
  });
  const back = answer.headers.get('location');
  if (!back) throw new Error(`authorize form answered ${answer.status} without a redirect: ${(await answer.text()).replace(/<[^>]+>/g, ' ').trim().slice(0, 200)}`);
  return new URL(back, action);
}

/** A PKCE verifier and its S256 challenge, for connectors with `pkce: true`. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

// ---------------------------------------------------------------------------------------------
// Daemon

async function main(): Promise<void> {
  // The API's own settings, so the callbacks registered are exactly the ones it will send.
  const config = loadConfig();
  const processingMs = process.env.HERALD_SANDBOX_PROCESSING_MS ? Number(process.env.HERALD_SANDBOX_PROCESSING_MS) : SANDBOX_PROCESSING_MS;
  if (!Number.isInteger(processingMs) || processingMs < 0) throw new Error(`HERALD_SANDBOX_PROCESSING_MS must be a non-negative integer, got "${process.env.HERALD_SANDBOX_PROCESSING_MS}"`);
  const sandbox = await startSandbox({
    ports: 'fixed',
    stateDir: resolve(process.env.HERALD_STATE_DIR || join(process.cwd(), '.herald')),
    heraldPublicBaseUrl: config.media.publicBaseUrl,
    namespace: config.namespace,
    processingMs,
  });
  process.stdout.write(`[sandbox] ${Object.keys(sandbox.simulators).length} simulators up; OAuth callbacks under ${config.media.publicBaseUrl}/api/${config.namespace}/oauth/; wrote ${sandbox.envFile}\n`);
  for (const [key, value] of Object.entries(sandbox.env)) {
    process.stdout.write(SANDBOX_SECRET_KEYS.has(key) ? `${key}=(secret: see ${sandbox.envFile})\n` : `${key}=${value}\n`);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`[sandbox] ${signal}: shutting down\n`);
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`[sandbox] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
