/**
 * The networks Herald talks to: one table, one entry per network, mapping environment variables
 * to the options of that network's adapter factory (adapters/platforms/<net>.ts).
 *
 * Variables (an empty value counts as unset; every base URL defaults to the real network's):
 *
 * | Network   | Variables |
 * |-----------|-----------|
 * | (all)     | `HERALD_PLATFORM_TIMEOUT_MS` (JSON call timeout, default 60 s) |
 * | discord   | `DISCORD_API_BASE`, `DISCORD_ALLOWED_WEBHOOK_HOSTS` (comma list) |
 * | telegram  | `TELEGRAM_API_BASE` |
 * | bluesky   | `BLUESKY_API_BASE`, `BLUESKY_VIDEO_BASE`, `BLUESKY_VIDEO_SERVICE_DID`, `BLUESKY_APP_URL` |
 * | tiktok    | `HERALD_TIKTOK_CLIENT_ID`, `HERALD_TIKTOK_CLIENT_SECRET`, `TIKTOK_API_BASE`, `TIKTOK_AUTH_BASE`, `TIKTOK_BUSINESS_API_BASE`, `TIKTOK_VIDEO_SOURCE` (FILE_UPLOAD or PULL_FROM_URL) |
 * | instagram | `HERALD_INSTAGRAM_CLIENT_ID`, `HERALD_INSTAGRAM_CLIENT_SECRET`, `INSTAGRAM_API_BASE`, `INSTAGRAM_API_VERSION`, `INSTAGRAM_AUTHORIZE_URL`, `INSTAGRAM_TOKEN_URL` |
 * | threads   | `HERALD_THREADS_CLIENT_ID`, `HERALD_THREADS_CLIENT_SECRET`, `THREADS_API_BASE`, `THREADS_API_VERSION`, `THREADS_AUTHORIZE_URL` |
 * | facebook  | `HERALD_FACEBOOK_CLIENT_ID`, `HERALD_FACEBOOK_CLIENT_SECRET`, `FACEBOOK_API_BASE`, `FACEBOOK_VIDEO_API_BASE`, `FACEBOOK_AUTH_BASE` |
 * | youtube   | `HERALD_YOUTUBE_CLIENT_ID`, `HERALD_YOUTUBE_CLIENT_SECRET`, `YOUTUBE_API_BASE`, `YOUTUBE_AUTH_BASE`, `YOUTUBE_TOKEN_URL` |
 * | linkedin  | `HERALD_LINKEDIN_CLIENT_ID`, `HERALD_LINKEDIN_CLIENT_SECRET`, `LINKEDIN_API_BASE`, `LINKEDIN_AUTH_BASE`, `LINKEDIN_VERSION` (YYYYMM), `LINKEDIN_ORGANIZATION_PAGES` (true/false) |
 * | x         | `HERALD_X_CLIENT_ID`, `HERALD_X_CLIENT_SECRET`, `X_API_BASE`, `X_AUTH_BASE`, `X_KEEP_LINKS` (true/false) |
 * | pinterest | `HERALD_PINTEREST_CLIENT_ID`, `HERALD_PINTEREST_CLIENT_SECRET`, `PINTEREST_API_BASE`, `PINTEREST_AUTH_BASE` |
 *
 * Processing polls (how often Herald asks a network whether a video is ready; workflow timers):
 * `TIKTOK_POLL_MS`, `TIKTOK_POST_ID_POLL_MS`, `INSTAGRAM_POLL_MS`, `THREADS_POLL_MS`, `FACEBOOK_POLL_MS`,
 * `YOUTUBE_POLL_MS`, `LINKEDIN_POLL_MS`, `BLUESKY_POLL_MS` (defaults: each adapter's production value).
 * `YOUTUBE_DAILY_LIMIT_PAUSE_MS`: how long a channel over its daily upload limit is paused before
 * the post is retried (default 2 hours, spec; tests use seconds).
 *
 * Discord, Telegram and Bluesky are connected with credentials and are always registered. An OAuth
 * network is registered only when both its client id and secret are set.
 */
import type { PlatformAdapter, PlatformRegistry } from '../../core/ports/platform';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createBlueskyPlatform, type BlueskyPlatformOptions } from '../../adapters/platforms/bluesky';
import { createDiscordPlatform, type DiscordPlatformOptions } from '../../adapters/platforms/discord';
import { createFacebookPlatform, type FacebookPlatformOptions } from '../../adapters/platforms/facebook';
import { createInstagramPlatform, type InstagramPlatformOptions } from '../../adapters/platforms/instagram';
import { createLinkedInPlatform, type LinkedInPlatformOptions } from '../../adapters/platforms/linkedin';
import { createPinterestPlatform, type PinterestPlatformOptions } from '../../adapters/platforms/pinterest';
import { createTelegramPlatform, type TelegramPlatformOptions } from '../../adapters/platforms/telegram';
import { createThreadsPlatform, type ThreadsPlatformOptions } from '../../adapters/platforms/threads';
import { createTikTokPlatform, type TikTokPlatformOptions } from '../../adapters/platforms/tiktok';
import { createXPlatform, type XPlatformOptions } from '../../adapters/platforms/x';
import { createYoutubePlatform, type YoutubePlatformOptions } from '../../adapters/platforms/youtube';

type Env = Record<string, string | undefined>;

/** The factory options of each network. */
interface NetworkOptions {
  discord: DiscordPlatformOptions;
  telegram: TelegramPlatformOptions;
  bluesky: BlueskyPlatformOptions;
  tiktok: TikTokPlatformOptions;
  instagram: InstagramPlatformOptions;
  threads: ThreadsPlatformOptions;
  facebook: FacebookPlatformOptions;
  youtube: YoutubePlatformOptions;
  linkedin: LinkedInPlatformOptions;
  x: XPlatformOptions;
  pinterest: PinterestPlatformOptions;
}
export type NetworkId = keyof NetworkOptions;

/** Registry order. */
export const NETWORK_IDS = [
  'discord', 'telegram', 'bluesky', 'tiktok', 'instagram', 'threads', 'facebook', 'youtube', 'linkedin', 'x', 'pinterest',
] as const satisfies readonly NetworkId[];

/** Networks connected by OAuth: each needs `HERALD_<NET>_CLIENT_ID` and `HERALD_<NET>_CLIENT_SECRET`. */
export const OAUTH_NETWORKS = ['tiktok', 'instagram', 'threads', 'facebook', 'youtube', 'linkedin', 'x', 'pinterest'] as const satisfies readonly NetworkId[];
export type OAuthNetwork = (typeof OAUTH_NETWORKS)[number];

const isOAuthNetwork = (id: NetworkId): id is OAuthNetwork => (OAUTH_NETWORKS as readonly string[]).includes(id);

/** The variables holding an OAuth network's client credentials. */
export function clientVariables(network: OAuthNetwork): { id: string; secret: string } {
  const net = network.toUpperCase();
  return { id: `HERALD_${net}_CLIENT_ID`, secret: `HERALD_${net}_CLIENT_SECRET` };
}

// ---------------------------------------------------------------------------------------------
// Readers: a raw (trimmed, non-empty) value to an option value; they name the variable on error.

type Read<T> = (raw: string, variable: string) => T;

const httpUrl: Read<string> = (raw, variable) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${variable} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${variable} must be an http(s) URL, got "${raw}"`);
  return raw;
};
const text: Read<string> = (raw) => raw;
const did: Read<string> = (raw, variable) => {
  if (!/^did:[a-z]+:\S+$/.test(raw)) throw new Error(`${variable} must be a DID such as did:web:video.bsky.app, got "${raw}"`);
  return raw;
};
const flag: Read<boolean> = (raw, variable) => {
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new Error(`${variable} must be true or false, got "${raw}"`);
};
const millis: Read<number> = (raw, variable) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${variable} must be a positive number of milliseconds, got "${raw}"`);
  return n;
};
const hostList: Read<string[]> = (raw) => raw.split(',').map((s) => s.trim()).filter(Boolean);
const linkedInVersion: Read<string> = (raw, variable) => {
  if (!/^\d{6}(\.\d{2})?$/.test(raw)) throw new Error(`${variable} must be a LinkedIn API version YYYYMM or YYYYMM.RR, got "${raw}"`);
  return raw;
};
const tiktokVideoSource: Read<'FILE_UPLOAD' | 'PULL_FROM_URL'> = (raw, variable) => {
  if (raw !== 'FILE_UPLOAD' && raw !== 'PULL_FROM_URL') throw new Error(`${variable} must be FILE_UPLOAD or PULL_FROM_URL, got "${raw}"`);
  return raw;
};

// ---------------------------------------------------------------------------------------------
// The table

/** What the environment may set: everything but the client credentials, the timeout and test hooks. */
type Tunable<O> = Omit<O, 'clientId' | 'clientSecret' | 'timeoutMs' | 'fetch' | 'now'>;
type EnvMap<O> = { [K in keyof Tunable<O>]?: readonly [variable: string, read: Read<NonNullable<Tunable<O>[K]>>] };

interface NetworkEntry<O> {
  env: EnvMap<O>;
  create(options: O): PlatformAdapter;
}

const NETWORKS: { [K in NetworkId]: NetworkEntry<NetworkOptions[K]> } = {
  discord: {
    env: { apiBase: ['DISCORD_API_BASE', httpUrl], allowedWebhookHosts: ['DISCORD_ALLOWED_WEBHOOK_HOSTS', hostList] },
    create: createDiscordPlatform,
  },
  telegram: {
    env: { apiBase: ['TELEGRAM_API_BASE', httpUrl] },
    create: createTelegramPlatform,
  },
  bluesky: {
    env: {
      apiBase: ['BLUESKY_API_BASE', httpUrl],
      videoBase: ['BLUESKY_VIDEO_BASE', httpUrl],
      videoServiceDid: ['BLUESKY_VIDEO_SERVICE_DID', did],
      appUrl: ['BLUESKY_APP_URL', httpUrl],
      videoPollMs: ['BLUESKY_POLL_MS', millis],
    },
    create: createBlueskyPlatform,
  },
  tiktok: {
    env: {
      apiBase: ['TIKTOK_API_BASE', httpUrl],
      authBase: ['TIKTOK_AUTH_BASE', httpUrl],
      businessApiBase: ['TIKTOK_BUSINESS_API_BASE', httpUrl],
      videoSource: ['TIKTOK_VIDEO_SOURCE', tiktokVideoSource],
      pollIntervalMs: ['TIKTOK_POLL_MS', millis],
      postIdPollIntervalMs: ['TIKTOK_POST_ID_POLL_MS', millis],
    },
    create: createTikTokPlatform,
  },
  instagram: {
    env: {
      apiBase: ['INSTAGRAM_API_BASE', httpUrl],
      apiVersion: ['INSTAGRAM_API_VERSION', text],
      authorizeUrl: ['INSTAGRAM_AUTHORIZE_URL', httpUrl],
      tokenUrl: ['INSTAGRAM_TOKEN_URL', httpUrl],
      pollIntervalMs: ['INSTAGRAM_POLL_MS', millis],
    },
    create: createInstagramPlatform,
  },
  threads: {
    env: {
      apiBase: ['THREADS_API_BASE', httpUrl],
      apiVersion: ['THREADS_API_VERSION', text],
      authorizeUrl: ['THREADS_AUTHORIZE_URL', httpUrl],
      pollIntervalMs: ['THREADS_POLL_MS', millis],
    },
    create: createThreadsPlatform,
  },
  facebook: {
    env: {
      apiBase: ['FACEBOOK_API_BASE', httpUrl],
      videoApiBase: ['FACEBOOK_VIDEO_API_BASE', httpUrl],
      authBase: ['FACEBOOK_AUTH_BASE', httpUrl],
      pollIntervalMs: ['FACEBOOK_POLL_MS', millis],
    },
    create: createFacebookPlatform,
  },
  youtube: {
    env: {
      apiBase: ['YOUTUBE_API_BASE', httpUrl],
      authBase: ['YOUTUBE_AUTH_BASE', httpUrl],
      tokenUrl: ['YOUTUBE_TOKEN_URL', httpUrl],
      pollIntervalMs: ['YOUTUBE_POLL_MS', millis],
      dailyLimitPauseMs: ['YOUTUBE_DAILY_LIMIT_PAUSE_MS', millis],
    },
    create: createYoutubePlatform,
  },
  linkedin: {
    env: {
      apiBase: ['LINKEDIN_API_BASE', httpUrl],
      authBase: ['LINKEDIN_AUTH_BASE', httpUrl],
      version: ['LINKEDIN_VERSION', linkedInVersion],
      organizationPages: ['LINKEDIN_ORGANIZATION_PAGES', flag],
      videoPollMs: ['LINKEDIN_POLL_MS', millis],
    },
    create: createLinkedInPlatform,
  },
  x: {
    env: {
      apiBase: ['X_API_BASE', httpUrl],
      authBase: ['X_AUTH_BASE', httpUrl],
      keepLinks: ['X_KEEP_LINKS', flag],
    },
    create: createXPlatform,
  },
  pinterest: {
    env: {
      apiBase: ['PINTEREST_API_BASE', httpUrl],
      authBase: ['PINTEREST_AUTH_BASE', httpUrl],
    },
    create: createPinterestPlatform,
  },
};

/** Every variable a network reads (its client credentials first for OAuth networks). */
export function networkVariables(network: NetworkId): string[] {
  const own = Object.values(NETWORKS[network].env as Record<string, readonly [string, unknown]>).map(([variable]) => variable);
  if (!isOAuthNetwork(network)) return own;
  const client = clientVariables(network);
  return [client.id, client.secret, ...own];
}

// ---------------------------------------------------------------------------------------------
// Settings (part of HeraldConfig) and the registry

export interface PlatformSettings {
  /** `HERALD_PLATFORM_TIMEOUT_MS`: passed to every adapter as its JSON call timeout. */
  timeoutMs: number;
  /** Factory options of every network to register; an OAuth network without client id and secret is absent. */
  networks: { [K in NetworkId]?: NetworkOptions[K] };
  /** OAuth networks left out, with the variables that are missing (names only, never values). */
  unconfigured: Array<{ network: OAuthNetwork; missing: string[] }>;
}

const value = (env: Env, variable: string): string | undefined => {
  const raw = env[variable]?.trim();
  return raw ? raw : undefined;
};

type ReadResult<O> = { options: O } | { missing: string[] };

function readNetwork<K extends NetworkId>(network: K, env: Env, timeoutMs: number): ReadResult<NetworkOptions[K]> {
  const options: Record<string, unknown> = { timeoutMs };
  for (const [option, spec] of Object.entries(NETWORKS[network].env as Record<string, readonly [string, Read<unknown>]>)) {
    const [variable, read] = spec;
    const raw = value(env, variable);
    if (raw !== undefined) options[option] = read(raw, variable);
  }
  if (isOAuthNetwork(network)) {
    const names = clientVariables(network);
    const clientId = value(env, names.id);
    const clientSecret = value(env, names.secret);
    if (!clientId || !clientSecret) return { missing: [...(clientId ? [] : [names.id]), ...(clientSecret ? [] : [names.secret])] };
    Object.assign(options, { clientId, clientSecret });
  }
  return { options: options as unknown as NetworkOptions[K] };
}

/** The networks' part of the configuration, from the environment. Throws naming the variable on a bad value. */
export function loadPlatformSettings(env: Env): PlatformSettings {
  const rawTimeout = value(env, 'HERALD_PLATFORM_TIMEOUT_MS');
  const timeoutMs = rawTimeout === undefined ? 60_000 : Number(rawTimeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`HERALD_PLATFORM_TIMEOUT_MS must be a positive integer, got "${rawTimeout}"`);
  const settings: PlatformSettings = { timeoutMs, networks: {}, unconfigured: [] };
  for (const network of NETWORK_IDS) {
    const read = readNetwork(network, env, timeoutMs);
    if ('missing' in read) settings.unconfigured.push({ network: network as OAuthNetwork, missing: read.missing });
    else (settings.networks as Record<string, unknown>)[network] = read.options;
  }
  return settings;
}

function create<K extends NetworkId>(network: K, options: NetworkOptions[K]): PlatformAdapter {
  return NETWORKS[network].create(options);
}

/** One adapter per configured network, in NETWORK_IDS order. */
export function buildPlatforms(settings: PlatformSettings): PlatformRegistry {
  const adapters: PlatformAdapter[] = [];
  for (const network of NETWORK_IDS) {
    const options = settings.networks[network];
    if (options) adapters.push(create(network, options));
  }
  return createPlatformRegistry(adapters);
}

// ---------------------------------------------------------------------------------------------
// OAuth callbacks: what each network's app must list as its redirect URI.

/** Herald's OAuth callback path for one network (served by the API). */
export const oauthCallbackPath = (namespace: string, network: OAuthNetwork): string => `/api/${namespace}/oauth/${network}/callback`;

/** The callback path of every OAuth network. */
export function oauthCallbackPaths(namespace: string): Array<{ network: OAuthNetwork; path: string }> {
  return OAUTH_NETWORKS.map((network) => ({ network, path: oauthCallbackPath(namespace, network) }));
}

/** The full redirect URI a network's app must register: `${HERALD_PUBLIC_BASE_URL}/api/<namespace>/oauth/<net>/callback`. */
export function oauthCallbackUrl(publicBaseUrl: string, namespace: string, network: OAuthNetwork): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${oauthCallbackPath(namespace, network)}`;
}
