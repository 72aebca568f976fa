/**
 * The networks' part of the configuration, derived from the network records
 * (adapters/platforms/index.ts): each record's `env` map names the variables of its options.
 *
 * Variables (an empty value counts as unset; every base URL defaults to the real network's):
 * - `HERALD_PLATFORM_TIMEOUT_MS`: JSON call timeout of every adapter (default 60 s).
 * - OAuth networks: `HERALD_<NET>_CLIENT_ID` and `HERALD_<NET>_CLIENT_SECRET`; a network without
 *   both is not registered (and `/healthz` says which variables are missing).
 * - Each network's base URLs, API versions, flags and processing-poll intervals: the `env` map of
 *   its record in adapters/platforms/<net>/index.ts (docs/configuration.md lists them, generated).
 */
import type { PlatformRegistry } from '../../core/ports/platform';
import { NETWORKS, type NetworkId } from '../../adapters/platforms';
import { clientVariables, isOAuth, type EnvDoc, type NetworkModule } from '../../adapters/platforms/kit/network';
import { readerType, type EnvRead } from '../../adapters/platforms/kit/env';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { setting } from './settings';

export { clientVariables, type NetworkId };

type Env = Record<string, string | undefined>;
type AnyNetwork = NetworkModule<NetworkId, never>;
const modules = NETWORKS as unknown as readonly AnyNetwork[];

/** Registry order. */
export const NETWORK_IDS: readonly NetworkId[] = modules.map((m) => m.id);

/** Networks connected by OAuth: each needs `HERALD_<NET>_CLIENT_ID` and `HERALD_<NET>_CLIENT_SECRET`. */
export const OAUTH_NETWORKS: readonly NetworkId[] = modules.filter(isOAuth).map((m) => m.id);
export type OAuthNetwork = NetworkId;

const moduleOf = (network: NetworkId): AnyNetwork => modules.find((m) => m.id === network)!;
const envEntries = (network: NetworkId) =>
  Object.entries(moduleOf(network).env as Record<string, readonly [string, EnvRead<unknown>, EnvDoc]>);

/** Every variable a network reads (its client credentials first for OAuth networks). */
export function networkVariables(network: NetworkId): string[] {
  const own = envEntries(network).map(([, [variable]]) => variable);
  if (!OAUTH_NETWORKS.includes(network)) return own;
  const client = clientVariables(network);
  return [client.id, client.secret, ...own];
}

/** One network variable as docs/configuration.md lists it (generated from the records). */
export interface NetworkVariableDoc { network: NetworkId; variable: string; type: string; default: string; meaning: string }

/** Every variable of every network, in registry order: the OAuth client credentials first, then the record's `env` map. */
export function networkVariableDocs(): NetworkVariableDoc[] {
  return NETWORK_IDS.flatMap((network) => {
    const client = OAUTH_NETWORKS.includes(network) ? clientVariables(network) : undefined;
    const credentials: NetworkVariableDoc[] = client ? [
      { network, variable: client.id, type: 'text', default: 'unset: the network is left out (named in `/healthz`)', meaning: `Client id of Herald's ${network} OAuth app.` },
      { network, variable: client.secret, type: 'text', default: 'unset: the network is left out', meaning: `Client secret of Herald's ${network} OAuth app.` },
    ] : [];
    return [...credentials, ...envEntries(network).map(([, [variable, read, doc]]) => ({
      network, variable, type: doc.type ?? readerType(read) ?? 'text', default: doc.default, meaning: doc.meaning,
    }))];
  });
}

/** The variable of each processing-poll option (the sandbox sets them to its processing time). */
export const POLL_VARIABLES: readonly string[] = modules.flatMap((m) =>
  (m.pollOptions ?? []).map((option) => (m.env as Record<string, readonly [string, unknown, unknown]>)[option]![0]));

export interface PlatformSettings {
  /** `HERALD_PLATFORM_TIMEOUT_MS`: passed to every adapter as its JSON call timeout. */
  timeoutMs: number;
  /** Factory options of every network to register; an OAuth network without client id and secret is absent. */
  networks: Partial<Record<NetworkId, Record<string, unknown>>>;
  /** OAuth networks left out, with the variables that are missing (names only, never values). */
  unconfigured: Array<{ network: OAuthNetwork; missing: string[] }>;
}

const value = (env: Env, variable: string): string | undefined => {
  const raw = env[variable]?.trim();
  return raw ? raw : undefined;
};

function readNetwork(network: NetworkId, env: Env, timeoutMs: number): { options: Record<string, unknown> } | { missing: string[] } {
  const options: Record<string, unknown> = { timeoutMs };
  for (const [option, [variable, read]] of envEntries(network)) {
    const raw = value(env, variable);
    if (raw !== undefined) options[option] = read(raw, variable);
  }
  if (OAUTH_NETWORKS.includes(network)) {
    const names = clientVariables(network);
    const clientId = value(env, names.id);
    const clientSecret = value(env, names.secret);
    if (!clientId || !clientSecret) return { missing: [...(clientId ? [] : [names.id]), ...(clientSecret ? [] : [names.secret])] };
    Object.assign(options, { clientId, clientSecret });
  }
  return { options };
}

/** The networks' part of the configuration, from the environment. Throws naming the variable on a bad value. */
export function loadPlatformSettings(env: Env): PlatformSettings {
  const timeoutMs = setting(env, 'HERALD_PLATFORM_TIMEOUT_MS');
  const settings: PlatformSettings = { timeoutMs, networks: {}, unconfigured: [] };
  for (const network of NETWORK_IDS) {
    const read = readNetwork(network, env, timeoutMs);
    if ('missing' in read) settings.unconfigured.push({ network, missing: read.missing });
    else settings.networks[network] = read.options;
  }
  return settings;
}

/** One adapter per configured network, in registry order. */
export function buildPlatforms(settings: PlatformSettings, fetchOf?: (network: NetworkId) => typeof fetch): PlatformRegistry {
  return createPlatformRegistry(modules.flatMap((m) => {
    const options = settings.networks[m.id];
    if (!options) return [];
    // fetchOf: the instrumented fetch of each network (spans and latency, adapters/platforms/kit/traced-fetch.ts).
    const adapter = m.create((fetchOf ? { ...options, fetch: fetchOf(m.id) } : options) as never);
    if (adapter.descriptor.id !== m.id) throw new Error(`network record ${m.id} built an adapter for ${adapter.descriptor.id}`);
    return [adapter];
  }));
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
