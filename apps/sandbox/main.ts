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
 * As a daemon (`node dist/apps/sandbox/main.js`) it listens on fixed ports (SANDBOX_PORT_RANGE) and writes
 * `${HERALD_STATE_DIR:-.herald}/sandbox.env` (mode 0600), which ops/start.sh loads into the API and
 * worker.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { NETWORKS } from '../../adapters/platforms';
import { sandboxNetworksOf, type SandboxAccounts, type SandboxNetworkId, type SandboxSimulators } from '../../ops/simulators';
import type { SandboxNetwork, SandboxSeed } from '../../ops/simulators/kit/sandbox';
import { loadConfig } from '../shared/config';
import { createLogger, registerSecret, setRootLogger } from '../shared/logging';
import { POLL_VARIABLES, clientVariables, oauthCallbackUrl } from '../shared/platforms';

export type { SandboxAccounts, SandboxSimulators };

/** Changing it changes every sandbox id and secret: connected sandbox accounts would need reconnecting. */
export const SANDBOX_SEED = 'herald-sandbox-v1';

/** A simulator for every network Herald has (each found in its folder by the network's id). */
export const SANDBOX_NETWORKS: readonly SandboxNetwork<SandboxNetworkId>[] = sandboxNetworksOf(NETWORKS.map((n) => n.id));

/** Daemon ports (from each simulator's record). */
export const SANDBOX_PORTS = Object.fromEntries(SANDBOX_NETWORKS.map((n) => [n.id, n.port])) as Record<SandboxNetworkId, number>;

/** Where the fixed ports live: apart from Herald's daemons (8787-8789), Temporal (7233, 8233), FerretDB (27017) and Redis (6379). */
export const SANDBOX_PORT_RANGE = { from: 4101, to: 4199 } as const;

/**
 * What is wrong with the networks' fixed ports: two networks on one port (`slack and snapchat on
 * 4131`, found only as EADDRINUSE at start otherwise) or a port outside SANDBOX_PORT_RANGE.
 * The daemon refuses to start with any; test/unit/sandbox-ports.test.ts keeps the list clean.
 */
export function sandboxPortProblems(networks: ReadonlyArray<Pick<SandboxNetwork, 'id' | 'port'>> = SANDBOX_NETWORKS): string[] {
  const { from, to } = SANDBOX_PORT_RANGE;
  const byPort = new Map<number, string[]>();
  for (const n of networks) byPort.set(n.port, [...(byPort.get(n.port) ?? []), n.id]);
  return [
    ...[...byPort].filter(([, ids]) => ids.length > 1).map(([port, ids]) => `${ids.join(' and ')} on ${port}`),
    ...networks.filter((n) => !Number.isInteger(n.port) || n.port < from || n.port > to).map((n) => `${n.id} on ${n.port}, outside ${from}..${to}`),
  ];
}

/** Time simulators take to "process" media: long enough that the Temporal UI shows the waits. */
export const SANDBOX_PROCESSING_MS = 1000;

/** How often Herald polls each network's processing (the `pollOptions` of the network records). */
export const SANDBOX_POLL_VARIABLES = POLL_VARIABLES;

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

export interface Sandbox {
  /** Every base URL, client id and secret, and the SANDBOX_* credentials; load it into the API and worker. */
  env: Record<string, string>;
  simulators: SandboxSimulators;
  accounts: SandboxAccounts;
  /** Keys of `env` whose values are credentials: written to sandbox.env, never printed. */
  secretKeys: ReadonlySet<string>;
  /** The sandbox.env written, when `stateDir` was given. */
  envFile?: string;
  close(): Promise<void>;
}

/** Starts every simulator, or none: on a failure the ones already up are closed again. */
async function startSimulators(opts: SandboxOptions, processingMs: number): Promise<Map<SandboxNetworkId, { close(): Promise<void> }>> {
  const problems = opts.ports === 'fixed' ? sandboxPortProblems() : [];
  if (problems.length) throw new Error(`sandbox: fixed simulator ports clash: ${problems.join('; ')} (ops/simulators/<network>/sandbox.ts)`);
  const started = await Promise.allSettled(SANDBOX_NETWORKS.map((network) => {
    const port = opts.ports === 'fixed' ? network.port : 0;
    return network.start({ port, seed: SANDBOX_SEED, processingMs }).catch((err: unknown) => {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`${network.id} simulator${port ? ` on port ${port}` : ''}: ${reason}`);
    });
  }));
  const failures = started.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  if (failures.length) {
    await Promise.allSettled(started.flatMap((r) => (r.status === 'fulfilled' ? [r.value.close()] : [])));
    throw new Error(`sandbox: ${failures.map((e) => e.message).join('; ')}`);
  }
  return new Map(SANDBOX_NETWORKS.map((n, i) => [n.id, (started[i] as PromiseFulfilledResult<{ close(): Promise<void> }>).value]));
}

/** The variable each adapter option is read from (the network records' `env` maps). */
function optionVariable(network: SandboxNetworkId, option: string): string {
  const module = NETWORKS.find((m) => m.id === network);
  const entry = (module?.env as Record<string, readonly [string, unknown, unknown]> | undefined)?.[option];
  if (!entry) throw new Error(`sandbox: the ${network} simulator sets option ${option}, which the ${network} adapter does not read from the environment`);
  return entry[0];
}

/** Seeds every simulator and turns the seeds into the environment of the API and worker. */
function seed(sims: Map<SandboxNetworkId, { close(): Promise<void> }>, callback: (network: SandboxNetworkId) => string) {
  const env: Record<string, string> = {};
  const secretKeys = new Set<string>();
  const accounts: Record<string, unknown> = {};
  for (const network of SANDBOX_NETWORKS) {
    const seeded: SandboxSeed<unknown> = network.seed(sims.get(network.id)!, callback(network.id));
    for (const [option, value] of Object.entries(seeded.options)) env[optionVariable(network.id, option)] = value;
    if (seeded.client) {
      const names = clientVariables(network.id);
      env[names.id] = seeded.client.clientId;
      env[names.secret] = seeded.client.clientSecret;
      secretKeys.add(names.secret);
    }
    Object.assign(env, seeded.variables);
    seeded.secretVariables?.forEach((key) => secretKeys.add(key));
    accounts[network.id] = seeded.account;
  }
  return { env, secretKeys, accounts: accounts as SandboxAccounts };
}

/** KEY=value lines for `set -a; . file`, Node's --env-file and dotenv: bare when shell-safe, else single-quoted. */
export function formatEnvFile(env: Record<string, string>): string {
  return Object.entries(env).map(([key, value]) =>
    /^[A-Za-z0-9_./:@%+,=-]*$/.test(value) ? `${key}=${value}\n` : `${key}='${value.replace(/'/g, `'\\''`)}'\n`).join('');
}

async function writeEnvFile(stateDir: string, env: Record<string, string>): Promise<string> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
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
    await Promise.allSettled([...sims.values()].map((s) => s.close()));
  };
  try {
    const { env: seeded, secretKeys, accounts } = seed(sims, (network) => oauthCallbackUrl(opts.heraldPublicBaseUrl, namespace, network));
    // Simulators finish processing in `processingMs`: Herald polls them about as often, not at production pace.
    const pollMs = String(Math.max(100, opts.processingMs ?? SANDBOX_PROCESSING_MS));
    const env = { ...seeded, ...Object.fromEntries(SANDBOX_POLL_VARIABLES.map((v) => [v, pollMs])) };
    const envFile = opts.stateDir ? await writeEnvFile(opts.stateDir, env) : undefined;
    const simulators = Object.fromEntries(sims) as unknown as SandboxSimulators;
    return { env, simulators, accounts, secretKeys, ...(envFile ? { envFile } : {}), close };
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
  const logger = setRootLogger(createLogger({ level: config.observability.logLevel, pretty: config.observability.logPretty ?? Boolean(process.stdout.isTTY), daemon: 'sandbox' }));
  const processingMs = process.env.HERALD_SANDBOX_PROCESSING_MS ? Number(process.env.HERALD_SANDBOX_PROCESSING_MS) : SANDBOX_PROCESSING_MS;
  if (!Number.isInteger(processingMs) || processingMs < 0) throw new Error(`HERALD_SANDBOX_PROCESSING_MS must be a non-negative integer, got "${process.env.HERALD_SANDBOX_PROCESSING_MS}"`);
  const sandbox = await startSandbox({
    ports: 'fixed',
    stateDir: resolve(process.env.HERALD_STATE_DIR || join(process.cwd(), '.herald')),
    heraldPublicBaseUrl: config.media.publicBaseUrl,
    namespace: config.namespace,
    processingMs,
  });
  for (const key of sandbox.secretKeys) registerSecret(sandbox.env[key]);
  logger.info({
    simulators: Object.keys(sandbox.simulators).length,
    oauth_callbacks: `${config.media.publicBaseUrl}/api/${config.namespace}/oauth/`,
    env_file: sandbox.envFile,
    env: Object.fromEntries(Object.entries(sandbox.env).map(([key, value]) => [key, sandbox.secretKeys.has(key) ? `(secret: see ${sandbox.envFile})` : value])),
  }, 'sandbox simulators up');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'sandbox shutting down');
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    setRootLogger(createLogger({ level: 'info', pretty: false, daemon: 'sandbox' })).error({ error: err instanceof Error ? err.message : String(err) }, 'sandbox failed to start');
    process.exit(1);
  });
}
