import { PlatformError } from '../domain/errors';
import type { CheckpointProbeOutcome } from '../ports/checkpoint-probes';
import type { CheckpointProbeContext } from '../ports/platform';
import type { Storage } from '../ports/storage';
import { freshCredentials, type RunUploadDeps } from './run-upload';

export type CheckpointProbeDeps = Pick<RunUploadDeps, 'platforms' | 'secrets' | 'clock'> & { storage: Pick<Storage, 'connectedAccounts'> };

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
  const checkpointProbe = adapter?.checkpointProbe;
  if (!adapter || !checkpointProbe) return 'gone';

  const ask = async (force: boolean) => {
    const ctx: CheckpointProbeContext = {
      credentials: await freshCredentials(deps, adapter, connection, force),
      ...(input.signal ? { signal: input.signal } : {}),
    };
    await checkpointProbe.probe(ctx);
  };
  try {
    try {
      await ask(false);
    } catch (err) {
      if (!authExpired(err) || !adapter.tokenRefresher) throw err;
      await ask(true);
    }
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (authExpired(err)) {
      await deps.storage.connectedAccounts.setStatus(connection.id, 'reauth_required', deps.clock.now());
      return 'gone';
    }
    return 'still_checkpointed';
  }
  await deps.storage.connectedAccounts.setCheckpointRequired(connection.id, false, deps.clock.now());
  return 'cleared';
}
