import { HeraldError } from '../domain/errors';
import type { ApiKey, OperatorAccount } from '../domain/operator';
import type { AuthFailureGuard } from '../ports/rate-limit';
import type { Storage } from '../ports/storage';
import type { Clock, KeyHasher } from '../ports/system';

export interface AuthenticateDeps {
  storage: Pick<Storage, 'apiKeys' | 'operators'>;
  hasher: KeyHasher;
  guard: AuthFailureGuard;
  clock: Clock;
}

export interface Caller {
  account: OperatorAccount;
  key: ApiKey;
}

function blocked(ms: number): HeraldError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new HeraldError('too_many_requests',
    `Too many failed authentication attempts from this address: blocked for ${seconds} more seconds.`,
    'auth_blocked', { retry_after_seconds: seconds });
}

/**
 * Resolves `Authorization: Apikey <key>` to its account. Ten consecutive failures from one
 * client address block it for five minutes (429 `auth_blocked`, with Retry-After).
 */
export async function authenticate(deps: AuthenticateDeps, input: { authorization?: string; address: string }): Promise<Caller> {
  const blockedMs = await deps.guard.blockedFor(input.address);
  if (blockedMs > 0) throw blocked(blockedMs);

  const match = /^Apikey\s+(\S+)\s*$/i.exec(input.authorization ?? '');
  const key = match ? await deps.storage.apiKeys.findByHash(deps.hasher.hash(match[1])) : null;
  const account = key && !key.revokedAt ? await deps.storage.operators.findById(key.accountId) : null;
  if (!key || key.revokedAt || !account) {
    const nowBlockedMs = await deps.guard.recordFailure(input.address);
    if (nowBlockedMs > 0) throw blocked(nowBlockedMs);
    throw new HeraldError('unauthenticated', match
      ? 'Invalid API key.'
      : 'Missing credentials: send the header "Authorization: Apikey <API_KEY>".');
  }
  await deps.guard.recordSuccess(input.address);
  // lastUsedAt is informative: write it at most once a minute, not on every request.
  const now = deps.clock.now();
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > 60_000) await deps.storage.apiKeys.touch(key.id, now);
  return { account, key };
}
