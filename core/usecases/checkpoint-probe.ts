import { PlatformError } from '../domain/errors';
import type { CheckpointProbeOutcome } from '../ports/checkpoint-probes';
import type { Storage } from '../ports/storage';
import type { RunUploadDeps } from './run-upload';
import { withConnection } from './connection-session';

export type CheckpointProbeDeps = Pick<RunUploadDeps, 'platforms' | 'secrets' | 'clock' | 'leases'> & { storage: Pick<Storage, 'connectedAccounts'> };

const authExpired = (err: unknown) => err instanceof PlatformError && err.failure.kind === 'auth_expired';

/**
 * Asks the network once whether a checkpointed connection works again, and lifts the flag when
 * it does. Decisions:
 * - nothing to probe (connection gone, disconnected, already reauth_required, flag already
 *   cleared by a reconnect, or a network without a probe): `gone`, the probing stops;
 * - the network still answers with a checkpoint, or any other refusal or outage (throttling,
 *   5xx, timeout): `still_checkpointed`, asked again next period: only a successful read proves
 *   the checkpoint is gone;
 * - the authorization is dead (refused even after one forced token refresh, like a publish): the
 *   connection is marked reauth_required and the probing stops (`gone`), because only a
 *   reconnect can help now and reconnecting clears the checkpoint flag too;
 * - anything that is not a network answer (storage) is thrown, for the caller to retry.
 */
export async function probeCheckpoint(
  deps: CheckpointProbeDeps, input: { connectionId: string; signal?: AbortSignal },
): Promise<CheckpointProbeOutcome> {
  const connection = await deps.storage.connectedAccounts.findById(input.connectionId);
  if (!connection || connection.status !== 'connected' || !connection.checkpointRequired) return 'gone';
  const adapter = deps.platforms.get(connection.platform);
  const checkpointProbe = adapter?.probe;
  if (!adapter || !checkpointProbe) return 'gone';

  try {
    await withConnection(deps, connection, (ctx) => checkpointProbe.probe(ctx), input.signal ? { signal: input.signal } : {});
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    // The authorization is dead (withConnection marked the account): only a reconnect helps now.
    return authExpired(err) ? 'gone' : 'still_checkpointed';
  }
  await deps.storage.connectedAccounts.setCheckpointRequired(connection.id, false, deps.clock.now());
  return 'cleared';
}
