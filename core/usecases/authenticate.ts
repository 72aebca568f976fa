import { HeraldError } from '../domain/errors';
import type { ApiKey, OperatorAccount } from '../domain/operator';
import type { AuthFailureGuard } from '../ports/rate-limit';
import type { Storage } from '../ports/storage';
import type { Clock, KeyHasher } from '../ports/system';

export interface AuthenticateDeps {
  storage: Storage;
  hasher: KeyHasher;
  guard: AuthFailureGuard;
  clock: Clock;
  /** Keys verified recently; without it every request reads its key and account from the database. */
  keyCache?: VerifiedKeyCache;
}

export interface Caller {
  account: OperatorAccount;
  key: ApiKey;
}

/** lastUsedAt is informative: written at most this often per key and process. */
const TOUCH_EVERY_MS = 60_000;

/** Entries kept before expired ones are swept (one per distinct key in use: thousands at most). */
const SWEEP_ABOVE = 10_000;

/**
 * Keys verified within the last `ttlMs`, by the hash of their secret, so that an authenticated
 * request costs no database read. Keys are revoked (and plans changed) by another process (the
 * CLI) that cannot reach this map: each API process sees a revocation at most `ttlMs` after it.
 * Only successes are kept; an unknown key is looked up every time (and counts as a failure).
 */
export class VerifiedKeyCache {
  private readonly entries = new Map<string, { caller: Caller; verifiedAt: number; touchedAt: number }>();

  constructor(readonly ttlMs: number) {}

  get(hash: string, now: number): Caller | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (now - entry.verifiedAt < this.ttlMs) return entry.caller;
    this.entries.delete(hash);
    return undefined;
  }

  set(hash: string, caller: Caller, now: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= SWEEP_ABOVE) {
      for (const [k, e] of this.entries) if (now - e.verifiedAt >= this.ttlMs) this.entries.delete(k);
      // Still full: that many live keys is abuse or a bug, not a working set worth keeping.
      if (this.entries.size >= SWEEP_ABOVE) this.entries.clear();
    }
    const touchedAt = Math.max(this.entries.get(hash)?.touchedAt ?? 0, caller.key.lastUsedAt?.getTime() ?? 0);
    this.entries.set(hash, { caller, verifiedAt: now, touchedAt });
  }

  /** Whether lastUsedAt is due to be written for this key (and notes that it is being written). */
  touchDue(hash: string, key: ApiKey, now: number): boolean {
    const entry = this.entries.get(hash);
    const last = Math.max(entry?.touchedAt ?? 0, key.lastUsedAt?.getTime() ?? 0);
    if (now - last <= TOUCH_EVERY_MS) return false;
    if (entry) entry.touchedAt = now;
    return true;
  }
}

function blocked(ms: number): HeraldError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new HeraldError('too_many_requests',
    `Too many failed authentication attempts from this address: blocked for ${seconds} more seconds.`,
    'auth_blocked', { retry_after_seconds: seconds });
}

async function verify(deps: AuthenticateDeps, hash: string): Promise<Caller | null> {
  const key = await deps.storage.apiKeys.findByHash(hash);
  if (!key || key.revokedAt) return null;
  const account = await deps.storage.operators.findById(key.accountId);
  return account ? { account, key } : null;
}

/**
 * Resolves `Authorization: Apikey <key>` to its account. Consecutive failures from one client
 * address are answered 401; the one that reaches the limit (ten by default) blocks the address for
 * the block time, so the request after it is the first answered 429 `auth_blocked` (with
 * Retry-After), whatever key it carries.
 */
export async function authenticate(deps: AuthenticateDeps, input: { authorization?: string; address: string }): Promise<Caller> {
  const guard = await deps.guard.check(input.address);
  if (guard.blockedMs > 0) throw blocked(guard.blockedMs);

  const match = /^Apikey\s+(\S+)\s*$/i.exec(input.authorization ?? '');
  const hash = match ? deps.hasher.hash(match[1]!) : undefined;
  const now = deps.clock.now();
  let caller = hash ? deps.keyCache?.get(hash, now.getTime()) : undefined;
  if (hash && !caller) {
    caller = (await verify(deps, hash)) ?? undefined;
    if (caller) deps.keyCache?.set(hash, caller, now.getTime());
  }
  if (!hash || !caller) {
    await deps.guard.recordFailure(input.address);
    throw new HeraldError('unauthenticated', match
      ? 'Invalid API key.'
      : 'Missing credentials: send the header "Authorization: Apikey <API_KEY>".');
  }
  // Only an address with failures on record has anything to reset.
  if (guard.failures > 0) await deps.guard.recordSuccess(input.address);
  const due = deps.keyCache
    ? deps.keyCache.touchDue(hash, caller.key, now.getTime())
    : !caller.key.lastUsedAt || now.getTime() - caller.key.lastUsedAt.getTime() > TOUCH_EVERY_MS;
  // Informative only: the request neither waits for the write nor fails with it.
  if (due) void deps.storage.apiKeys.touch(caller.key.id, now).catch(() => undefined);
  return caller;
}
