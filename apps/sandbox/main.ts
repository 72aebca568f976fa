/**
 * The sandbox: the Discord and Telegram simulators on fixed loopback ports, seeded with one Discord
 * webhook and one Telegram bot administering one channel, and a `sandbox.env` telling the API and
 * worker where they are. Seeding is deterministic (fixed seed, same calls in the same order), so a
 * sandbox account connected before a restart still works after it.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startDiscordSimulator, type DiscordSimulator } from '../../ops/simulators/discord';
import { startTelegramSimulator, type TelegramSimulator } from '../../ops/simulators/telegram';

const SANDBOX_SEED = 'herald-sandbox-v1';

export interface SandboxOptions {
  discordPort: number;
  telegramPort: number;
  stateDir: string;
}

export interface Sandbox {
  discord: DiscordSimulator;
  telegram: TelegramSimulator;
  env: Record<string, string>;
  envFile: string;
  close(): Promise<void>;
}

function port(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new Error(`${name} must be a port number, got ${JSON.stringify(value)}`);
  return parsed;
}

export async function startSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const discord = await startDiscordSimulator({ port: opts.discordPort, seed: SANDBOX_SEED });
  let telegram: TelegramSimulator;
  try {
    telegram = await startTelegramSimulator({ port: opts.telegramPort, seed: SANDBOX_SEED });
  } catch (err) {
    await discord.close();
    throw err;
  }

  const webhook = discord.createWebhook({ name: 'Herald Sandbox' });
  const bot = telegram.createBot({ username: 'herald_sandbox_bot', firstName: 'Herald Sandbox' });
  const channel = telegram.createChat({ type: 'channel', title: 'Herald Sandbox', username: 'herald_sandbox' });
  telegram.setMember(channel.id, bot.id, 'administrator', { can_post_messages: true });

  const env = {
    DISCORD_API_BASE: discord.baseUrl,
    TELEGRAM_API_BASE: telegram.baseUrl,
    SANDBOX_DISCORD_WEBHOOK_URL: webhook.url,
    SANDBOX_TELEGRAM_BOT_TOKEN: bot.token,
    SANDBOX_TELEGRAM_CHAT_ID: String(channel.id),
  };
  await mkdir(opts.stateDir, { recursive: true });
  const envFile = join(opts.stateDir, 'sandbox.env');
  // Written whole then renamed, so a reader never sees half a file.
  await writeFile(`${envFile}.tmp`, Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(''), { mode: 0o600 });
  await rename(`${envFile}.tmp`, envFile);

  return {
    discord,
    telegram,
    env,
    envFile,
    close: async () => {
      await Promise.allSettled([discord.close(), telegram.close()]);
    },
  };
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    discordPort: port(process.env.HERALD_SIM_DISCORD_PORT, 4101, 'HERALD_SIM_DISCORD_PORT'),
    telegramPort: port(process.env.HERALD_SIM_TELEGRAM_PORT, 4102, 'HERALD_SIM_TELEGRAM_PORT'),
    stateDir: resolve(process.env.HERALD_STATE_DIR || join(process.cwd(), '.herald')),
  });
  process.stdout.write(`[sandbox] simulators up; wrote ${sandbox.envFile}\n`);
  for (const [key, value] of Object.entries(sandbox.env)) process.stdout.write(`${key}=${value}\n`);

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
