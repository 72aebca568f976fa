import { createMemoryStorage } from '../../adapters/memory/storage';
import { createMemoryNotifier } from '../../adapters/memory/notifications/notifier';
import { createMemoryDuplicateWindow } from '../../adapters/memory/duplicate-window';
import { createInlineUploadRunner } from '../../adapters/memory/upload-runner';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createAuthFailureGuard } from '../../adapters/redis/rate-limit';
import { createAesSecretBox, randomIds, sha256KeyHasher } from '../../adapters/crypto/node-crypto';
import { ensureOperatorAccount, issueApiKey } from '../../core/usecases/operator-accounts';
import type { Clock } from '../../core/ports/system';
import { DEFAULT_UPLOAD_TIMING } from '../../core/ports/upload-runner';
import { fakeTextPlatform } from './fake-platform';
import { noMedia } from './media-access';
import type { PlatformAdapter } from '../../core/ports/platform';
import type { UploadVersions } from '../../core/ports/upload-versions';
import { stampedUploadWrites } from '../../core/usecases/upload-versions';

/**
 * The core wired to in-memory adapters: the unit-test world. With `uploadVersions`, every upload
 * write moves its account's stamp, as storage does in the daemons (apps/shared/compose.ts).
 */
export function aWorld(opts: { platforms?: PlatformAdapter[]; uploadVersions?: UploadVersions } = {}) {
  let now = new Date('2026-01-01T00:00:00Z');
  const clock: Clock = { now: () => new Date(now) };
  const memory = createMemoryStorage();
  const storage = opts.uploadVersions ? { ...memory, uploads: stampedUploadWrites(memory.uploads, opts.uploadVersions) } : memory;
  const discord = fakeTextPlatform('discord', { textMaxChars: 2000 });
  const telegram = fakeTextPlatform('telegram', { textMaxChars: 4096 });
  const platforms = createPlatformRegistry(opts.platforms ?? [discord.adapter, telegram.adapter]);
  const secrets = createAesSecretBox(Buffer.alloc(32, 7).toString('base64'));
  const notifier = createMemoryNotifier();
  const runDeps = { storage, platforms, secrets, notifier, clock, media: noMedia };
  const runner = createInlineUploadRunner(runDeps, { ...DEFAULT_UPLOAD_TIMING, transientBackoffMs: 0 });
  const guard = createAuthFailureGuard(undefined, { maxFailures: 10, blockSeconds: 300, keyPrefix: `t${Math.random()}` });
  const duplicates = createMemoryDuplicateWindow(clock);
  const deps = { storage, platforms, secrets, notifier, clock, media: noMedia, runner, guard, ids: randomIds, hasher: sha256KeyHasher, duplicates };
  return {
    deps,
    discord,
    telegram,
    notifier,
    runner,
    advance(ms: number) { now = new Date(now.getTime() + ms); },
    async operator(plan = 'business', email = `op${Math.random().toString(36).slice(2)}@example.com`) {
      const account = await ensureOperatorAccount(deps, { email, plan });
      const { secret } = await issueApiKey(deps, { email, name: 'test' });
      return { account, secret };
    },
  };
}
