import { PlatformError } from '../domain/errors';
import type { ConnectedAccount } from '../domain/connected-account';
import { LeaseBusyError, type CredentialLeases } from '../ports/credential-leases';
import type { CallContext, PlatformCredentials, PlatformRegistry, TokenRefresher } from '../ports/platform';
import type { Storage } from '../ports/storage';
import type { Clock, SecretBox } from '../ports/system';
import { SEALED_FIELDS } from '../domain/sealed-fields';
import { recordAuthStrike, recordRefreshFailure, type LifecycleDeps } from './connection-lifecycle';
import type { Metrics } from '../ports/metrics';

export interface ConnectionSessionDeps extends LifecycleDeps {
  storage: Pick<Storage, 'connectedAccounts'> & Partial<Pick<Storage, 'operators'>>;
  platforms: PlatformRegistry;
  secrets: SecretBox;
  clock: Clock;
  /** Cross-process serialization of refreshes; without it refreshes are serialized in this process only. */
  leases?: CredentialLeases;
  /** Counts token refreshes and reauth marks. */
  metrics?: Metrics;
  /**
   * The process's cache of connected-account records (core/usecases/connection-read-cache.ts), when
   * `connection` may have come from it: a renewal drops the record, since the credentials it holds
   * may be ones another process has rotated since.
   */
  connectionCache?: { forget(connectionId: string): void };
}

/** Refresh expiring tokens this long before they expire. */
export const REFRESH_AHEAD_MS = 5 * 60_000;
/** A refresh lease lapses after this if its holder died mid-refresh. */
const LEASE_TTL_MS = 60_000;
/** How long a call waits for another process's refresh of the same account. */
const LEASE_WAIT_MS = 45_000;

const isAuthExpired = (err: unknown): err is PlatformError => err instanceof PlatformError && err.failure.kind === 'auth_expired';

/** In-process serialization: one refresh per connected account at a time (the default lease). */
function localLeases(): CredentialLeases {
  const tails = new Map<string, Promise<void>>();
  return {
    async acquire(connectionId) {
      const previous = tails.get(connectionId) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => { release = resolve; });
      const tail = previous.then(() => mine);
      tails.set(connectionId, tail);
      await previous;
      return async () => {
        release();
        if (tails.get(connectionId) === tail) tails.delete(connectionId);
      };
    },
  };
}
const processLeases = localLeases();

/**
 * Every call made as a connected account goes through here: the credentials are opened, renewed
 * ahead of their expiry, renewed once more and the call retried once when the network answers
 * auth_expired, and the account is marked reauth_required when the network still refuses it.
 * Refreshes of one account are serialized (a lease per account), and a caller that waited for
 * another's refresh uses the renewed credentials instead of refreshing again. `connection` may be
 * a cached record: the stored credentials are read again (by id, never from a cache) before any
 * refresh, so a refresh token another process rotated meanwhile is never sent again.
 */
export async function withConnection<T>(
  deps: ConnectionSessionDeps, connection: ConnectedAccount, call: (ctx: CallContext) => Promise<T>, opts: { signal?: AbortSignal } = {},
): Promise<T> {
  const refresher = deps.platforms.get(connection.platform)?.refresher;
  let sealed = connection.sealedCredentials;
  let credentials = openCredentials(deps, connection, sealed);
  const context = (): CallContext => ({ credentials, ...(opts.signal ? { signal: opts.signal } : {}) });
  /** The refresh itself was refused (its failure is already counted: reauth_required at once). */
  let refreshRefused = false;
  const renew = async () => {
    // The record may be older than the stored one (a cache within its TTL): drop it, and let the
    // re-read under the lease decide whether another process renewed the tokens already.
    deps.connectionCache?.forget(connection.id);
    try {
      ({ sealed, credentials } = await refreshSerialized(deps, connection, refresher!, sealed, credentials));
    } catch (err) {
      if (isAuthExpired(err)) refreshRefused = true;
      throw err;
    }
  };

  try {
    if (refresher && expiring(deps, credentials)) await renew();
    let result: T;
    try {
      result = await call(context());
    } catch (err) {
      if (!isAuthExpired(err)) throw err;
      if (!refresher) {
        deps.connectionCache?.forget(connection.id);
        throw err;
      }
      await renew();
      result = await call(context());
    }
    if (connection.authStrikes) await deps.storage.connectedAccounts.clearFailures(connection.id, deps.clock.now());
    return result;
  } catch (err) {
    // The network refuses the account even with renewed credentials: a strike (the threshold of
    // them makes it reauth_required: only a reconnect helps).
    if (isAuthExpired(err) && !refreshRefused && await recordAuthStrike(deps, connection)) {
      deps.metrics?.inc('herald_accounts_reauth_required_total', { network: connection.platform });
    }
    throw err;
  }
}

/**
 * Refresh-ahead (the per-account workflow): renews the credentials now, serialized with every
 * other refresh of the account, whether or not they expire soon. A refused or failed refresh is
 * counted (core/usecases/connection-lifecycle.ts) and thrown.
 */
export async function renewCredentials(deps: ConnectionSessionDeps, connection: ConnectedAccount): Promise<PlatformCredentials> {
  const refresher = deps.platforms.get(connection.platform)?.refresher;
  if (!refresher) throw new PlatformError(connection.platform, { kind: 'unsupported' }, `${connection.platform} tokens are not renewed.`);
  const used = openCredentials(deps, connection);
  return (await refreshSerialized(deps, connection, refresher, connection.sealedCredentials, used)).credentials;
}

/** The connection's credentials (`sealed`: a text read for it under the lease). */
export const openCredentials = (deps: Pick<ConnectionSessionDeps, 'secrets'>, connection: ConnectedAccount, sealed = connection.sealedCredentials): PlatformCredentials =>
  JSON.parse(deps.secrets.open(sealed, SEALED_FIELDS.connectionCredentials(connection))) as PlatformCredentials;

function expiring(deps: Pick<ConnectionSessionDeps, 'clock'>, credentials: PlatformCredentials): boolean {
  const expiresAt = credentials.expires_at ? Date.parse(credentials.expires_at) : NaN;
  return Number.isFinite(expiresAt) && expiresAt - deps.clock.now().getTime() < REFRESH_AHEAD_MS;
}

/**
 * One refresh at a time per account. Under the lease, the stored credentials are read again: when
 * they differ from the ones this call used, another caller refreshed meanwhile and those are used.
 */
async function refreshSerialized(
  deps: ConnectionSessionDeps, connection: ConnectedAccount, refresher: TokenRefresher, usedSealed: string, used: PlatformCredentials,
): Promise<{ sealed: string; credentials: PlatformCredentials }> {
  let release: () => Promise<void>;
  try {
    release = await (deps.leases ?? processLeases).acquire(connection.id, { ttlMs: LEASE_TTL_MS, waitMs: LEASE_WAIT_MS });
  } catch (err) {
    if (!(err instanceof LeaseBusyError)) throw err;
    throw new PlatformError(connection.platform, { kind: 'transient' }, `The ${connection.platform} token of this account is being renewed by another call; try again shortly.`);
  }
  try {
    const current = await deps.storage.connectedAccounts.findById(connection.id);
    if (current && current.sealedCredentials !== usedSealed) return { sealed: current.sealedCredentials, credentials: openCredentials(deps, current) };
    let renewed: PlatformCredentials;
    try {
      renewed = await refresher.refresh(used);
    } catch (err) {
      deps.metrics?.inc('herald_token_refreshes_total', { network: connection.platform, outcome: 'failed' });
      // Counted toward the lifecycle's threshold: a refusal reaches it at once, other failures one by one.
      if (err instanceof PlatformError && (await recordRefreshFailure(deps, current ?? connection, isAuthExpired(err))).reauthRequired) {
        deps.metrics?.inc('herald_accounts_reauth_required_total', { network: connection.platform });
      }
      throw err;
    }
    deps.metrics?.inc('herald_token_refreshes_total', { network: connection.platform, outcome: 'ok' });
    const sealed = deps.secrets.seal(JSON.stringify(renewed), SEALED_FIELDS.connectionCredentials(connection));
    await deps.storage.connectedAccounts.updateCredentials(connection.id, sealed, deps.clock.now());
    return { sealed, credentials: renewed };
  } finally {
    await release();
  }
}
