import { connectionGeneration } from '../domain/connection-lifecycle';
import { PlatformError } from '../domain/errors';
import type { PlatformCredentials } from '../ports/platform';
import type { ConnectionRefreshes, RefreshAheadOutcome } from '../ports/connection-refreshes';
import { openCredentials, renewCredentials, type ConnectionSessionDeps } from './connection-session';
import { disconnectIfStillReauth, markReauthRequired } from './connection-lifecycle';
import type { ReauthReason } from '../ports/notifications';

export type RefreshAheadDeps = ConnectionSessionDeps;

const expiryOf = (credentials: PlatformCredentials): number => (credentials.expires_at ? Date.parse(credentials.expires_at) : NaN);

/**
 * One round of refresh-ahead for a connected OAuth account: renews its token when it expires
 * within `marginMs` (serialized with publishes through the connection session's lease, so a
 * rotating refresh token is never spent twice), and says when to look again. A failed refresh is
 * counted by the lifecycle and may end in reauth_required (with its event).
 */
export async function refreshAhead(deps: RefreshAheadDeps, input: { connectionId: string; marginMs: number }): Promise<RefreshAheadOutcome> {
  const connection = await deps.storage.connectedAccounts.findById(input.connectionId);
  if (!connection) return { kind: 'done', reason: 'gone' };
  const reauth = (c: typeof connection): RefreshAheadOutcome => ({
    kind: 'reauth_required', since: (c.reauthSince ?? c.updatedAt).toISOString(), generation: connectionGeneration(c),
  });
  if (connection.status === 'reauth_required') {
    // Whoever marked it may have had no outbox at hand (or died before emitting): the event goes
    // out now under the transition's own delivery key, so never twice.
    await markReauthRequired(deps, connection, (connection.reauthReason as ReauthReason | undefined) ?? 'token_refresh_threshold_exceeded');
    return reauth(connection);
  }
  if (!deps.platforms.get(connection.platform)?.refresher) return { kind: 'done', reason: 'no_expiry' };
  const credentials = openCredentials(deps, connection);
  const expiresAt = expiryOf(credentials);
  if (!Number.isFinite(expiresAt)) return { kind: 'done', reason: 'no_expiry' };
  const dueAt = expiresAt - input.marginMs;
  if (dueAt > deps.clock.now().getTime()) return { kind: 'next', nextAt: new Date(dueAt).toISOString() };

  let renewed: PlatformCredentials;
  try {
    renewed = await renewCredentials(deps, connection);
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    const after = await deps.storage.connectedAccounts.findById(connection.id);
    if (!after) return { kind: 'done', reason: 'gone' };
    if (after.status === 'reauth_required') return reauth(after);
    return { kind: 'failed', failures: after.refreshFailures ?? 0 };
  }
  const next = expiryOf(renewed);
  if (!Number.isFinite(next)) return { kind: 'done', reason: 'no_expiry' };
  return { kind: 'next', nextAt: new Date(next - input.marginMs).toISOString() };
}

/** The end of a persistent authentication failure: still reauth_required in the watched generation → disconnected (account_blocked). */
export async function blockIfStillReauth(deps: RefreshAheadDeps, input: { connectionId: string; generation: string }): Promise<boolean> {
  return disconnectIfStillReauth(deps, input);
}

/**
 * Back-fill at worker start: every stored account of a network that renews tokens gets its
 * refresh-ahead workflow (those connected before it existed, or whose start was lost while Temporal
 * was unreachable); a running one is left alone. Answers how many accounts it looked at.
 */
export async function ensureRefreshAheadForAll(
  deps: { storage: Pick<RefreshAheadDeps['storage'], 'connectedAccounts'>; platforms: RefreshAheadDeps['platforms']; refreshes: ConnectionRefreshes },
  opts: { pageSize?: number } = {},
): Promise<number> {
  const limit = opts.pageSize ?? 200;
  let seen = 0;
  for (const adapter of deps.platforms.list().filter((a) => a.refresher)) {
    let afterId: string | undefined;
    for (;;) {
      const page = await deps.storage.connectedAccounts.listByPlatform(adapter.descriptor.id, { limit, ...(afterId ? { afterId } : {}) });
      for (const connection of page.items) await deps.refreshes.ensure(connection);
      seen += page.items.length;
      if (page.next === undefined) break;
      afterId = page.next;
    }
  }
  return seen;
}
