import { HeraldError } from '../domain/errors';
import type { ApiKey, OperatorAccount } from '../domain/operator';
import type { AuthFailureGuard } from '../ports/rate-limit';
import type { Storage } from '../ports/storage';
import type { Clock, KeyHasher } from '../ports/system';
import { AGENT_ACCESS_TOKEN_PREFIX } from '../domain/agent-oauth';
import type { AgentOAuthStore } from '../ports/storage/agent-oauth';
import { agentScopeLevel, findLiveAccessToken } from './agent-oauth';

export interface AuthenticateDeps {
  storage: Pick<Storage, 'apiKeys' | 'operators'>;
  hasher: KeyHasher;
  guard: AuthFailureGuard;
  clock: Clock;
  /** Keys verified and addresses found clean recently; without it every request reads both. */
  authCache?: AuthCache;
  /**
   * Access tokens of the agent authorization server (the MCP daemon's OAuth 2.1): with it,
   * `Authorization: Bearer hma_…` authenticates as the API key the operator signed in with, if
   * the token was issued for `resource` (the MCP server's canonical URL, agentResourceOf; the API
   * serves the MCP server's tool calls with the token the agent gave it).
   */
  agentTokens?: { store: Pick<AgentOAuthStore, 'tokens'>; resource: string };
}

/**
 * The principal of an API call: always an API key. The connect page's token (`Bearer`, kind
 * `connect_session` once exchanged, core/usecases/connect-links.ts) is a principal of its own that
 * only validate-jwt and the web daemon accept; authenticate() refuses it everywhere else.
 */
export interface Caller {
  kind: 'api_key';
  account: OperatorAccount;
  key: ApiKey;
  /**
   * What the credential may do: absent or `account` = the account's API key (everything). A
   * profile-scoped credential (the connect token) sets another scope; routes that need the
   * account's own key check it (e.g. requireAccountPrincipal for webhook settings). An agent's
   * OAuth access token carries its grant's scope: `account` (scope `herald`) or `read`
   * (`herald:read`: the API answers only reads).
   */
  scope?: 'account' | 'profile' | 'read';
}

/** lastUsedAt is informative: written at most this often per key and process. */
const TOUCH_EVERY_MS = 60_000;

/** Entries kept before expired ones are swept (one per key or client address in use). */
const SWEEP_ABOVE = 10_000;

/** A map whose entries are dropped `ttlMs` after they were set. */
class Expiring<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();

  constructor(private readonly ttlMs: number) {}

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.at < this.ttlMs) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, now: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= SWEEP_ABOVE) {
      for (const [k, e] of this.entries) if (now - e.at >= this.ttlMs) this.entries.delete(k);
      // Still full: that many live entries is abuse or a bug, not a working set worth keeping.
      if (this.entries.size >= SWEEP_ABOVE) this.entries.clear();
    }
    this.entries.set(key, { value, at: now });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

/**
 * What an API process remembers for `ttlMs` so that a request with a known key costs no database
 * read and no auth-guard read: keys verified (by the hash of their secret), and client addresses
 * whose guard record was found clean. Keys are revoked (and plans changed) by another process (the
 * CLI), and other API processes may record failures for an address: each process honours those
 * at most `ttlMs` later. What this process sees itself applies at once: a failure forgets the
 * address, so the guard is read again before its next request. Unknown keys are never kept: they
 * are looked up every time and count as failures.
 */
export class AuthCache {
  private readonly keys: Expiring<Caller>;
  private readonly cleanAddresses: Expiring<true>;
  /** When lastUsedAt was last written per key id (by this process). */
  private readonly touched = new Map<string, number>();
  /** The digest of each key that verified, by the key itself: a hot key is not hashed per request. */
  private readonly digests = new Map<string, string>();
  /** Lookups in flight per key hash: requests arriving together when an entry expired share one. */
  private readonly pending = new Map<string, Promise<Caller | null>>();

  constructor(readonly ttlMs: number) {
    this.keys = new Expiring(ttlMs);
    this.cleanAddresses = new Expiring(ttlMs);
  }

  caller(hash: string, now: number): Caller | undefined {
    return this.keys.get(hash, now);
  }

  verified(hash: string, caller: Caller, now: number, secret?: string): void {
    this.keys.set(hash, caller, now);
    if (secret === undefined) return;
    if (this.digests.size >= SWEEP_ABOVE) this.digests.clear();
    this.digests.set(secret, hash);
  }

  /** The digest of `secret`: remembered when it verified before, else `hash(secret)`. */
  digest(secret: string, hash: (secret: string) => string): string {
    return this.digests.get(secret) ?? hash(secret);
  }

  /** `lookup()`'s answer for `hash`, shared by every request asking while it runs. */
  shared(hash: string, lookup: () => Promise<Caller | null>): Promise<Caller | null> {
    let running = this.pending.get(hash);
    if (!running) {
      running = lookup().finally(() => this.pending.delete(hash));
      this.pending.set(hash, running);
    }
    return running;
  }

  isClean(address: string, now: number): boolean {
    return this.cleanAddresses.get(address, now) === true;
  }

  clean(address: string, now: number): void {
    this.cleanAddresses.set(address, true, now);
  }

  failed(address: string): void {
    this.cleanAddresses.delete(address);
  }

  /** Whether lastUsedAt is due to be written for this key (and notes that it is being written). */
  touchDue(key: ApiKey, now: number): boolean {
    const last = Math.max(this.touched.get(key.id) ?? 0, key.lastUsedAt?.getTime() ?? 0);
    if (now - last <= TOUCH_EVERY_MS) return false;
    if (this.touched.size >= SWEEP_ABOVE) this.touched.clear();
    this.touched.set(key.id, now);
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
  return account ? { kind: 'api_key', account, key } : null;
}

/**
 * An agent's access token acts as the API key its operator signed in with (same account, same
 * rate-limit bucket, refused once that key is revoked), narrowed to the grant's scope, and only at
 * the resource it was issued for.
 */
async function verifyAgentToken(deps: AuthenticateDeps, tokenHash: string): Promise<Caller | null> {
  if (!deps.agentTokens) return null;
  const token = await findLiveAccessToken({ store: deps.agentTokens.store, clock: deps.clock }, tokenHash, deps.agentTokens.resource);
  if (!token) return null;
  const caller = await verify(deps, token.keyHash);
  return caller && caller.account.id === token.accountId ? { ...caller, scope: agentScopeLevel(token.scope) } : null;
}

const AGENT_BEARER = new RegExp(`^Bearer\\s+(${AGENT_ACCESS_TOKEN_PREFIX}\\S+)\\s*$`, 'i');

/** The credential an `Authorization` header presents under `scheme`, if any. */
export function credentialOf(authorization: string | undefined, scheme: 'Apikey' | 'Bearer'): string | undefined {
  return new RegExp(`^${scheme}\\s+(\\S+)\\s*$`, 'i').exec(authorization ?? '')?.[1];
}

function missingCredential(authorization: string | undefined): HeraldError {
  return new HeraldError('unauthenticated', /^Bearer\s/i.test(authorization ?? '')
    ? 'A connect token (Bearer) only works at GET /users/validate-jwt and on the connect page: this endpoint needs "Authorization: Apikey <API_KEY>".'
    : 'Missing credentials: send the header "Authorization: Apikey <API_KEY>".');
}

/**
 * Resolves `Authorization: Apikey <key>` to its account. Consecutive failures from one client
 * address are answered 401; the one that reaches the limit (ten by default) blocks the address for
 * the block time, so the request after it is the first answered 429 `auth_blocked` (with
 * Retry-After), whatever key it carries. Only a credential that is looked up and fails counts: a
 * request with none (or one of a scheme this endpoint does not verify) is answered 401 without
 * reading or touching the guard, so anonymous requests from a shared address (NAT, proxy, a
 * browser's stray requests) cannot lock out the clients behind it, and reveal nothing to guess with.
 */
export async function authenticate(deps: AuthenticateDeps, input: { authorization?: string; address: string }): Promise<Caller> {
  const cache = deps.authCache;
  const apiKey = credentialOf(input.authorization, 'Apikey');
  const agentToken = deps.agentTokens ? AGENT_BEARER.exec(input.authorization ?? '')?.[1] : undefined;
  const secret = apiKey ?? agentToken;
  if (!secret) throw missingCredential(input.authorization);
  const hash = cache ? cache.digest(secret, (k) => deps.hasher.hash(k)) : deps.hasher.hash(secret);
  const now = deps.clock.now().getTime();
  let caller = cache?.caller(hash, now);

  // The guard is read before any key is looked up, unless both key and address are known good.
  let failures = 0;
  if (!caller || !cache?.isClean(input.address, now)) {
    const guard = await deps.guard.check(input.address);
    if (guard.blockedMs > 0) throw blocked(guard.blockedMs);
    failures = guard.failures;
  }
  if (!caller) {
    const lookup = () => (apiKey ? verify(deps, hash) : verifyAgentToken(deps, hash));
    caller = (await (cache ? cache.shared(hash, lookup) : lookup())) ?? undefined;
    if (caller) cache?.verified(hash, caller, now, secret);
  }
  if (!caller) {
    cache?.failed(input.address);
    await deps.guard.recordFailure(input.address);
    throw new HeraldError('unauthenticated', apiKey ? 'Invalid API key.' : 'Invalid, expired or revoked access token: refresh it or authorize again.');
  }
  // Only an address with failures on record has anything to reset.
  if (failures > 0) await deps.guard.recordSuccess(input.address);
  cache?.clean(input.address, now);
  const due = cache
    ? cache.touchDue(caller.key, now)
    : !caller.key.lastUsedAt || now - caller.key.lastUsedAt.getTime() > TOUCH_EVERY_MS;
  // Informative only: the request neither waits for the write nor fails with it.
  if (due) void deps.storage.apiKeys.touch(caller.key.id, new Date(now)).catch(() => undefined);
  return caller;
}
