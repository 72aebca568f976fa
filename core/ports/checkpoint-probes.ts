import type { ConnectedAccount } from '../domain/connected-account';

/**
 * A checkpoint flag is lifted by the network, not by Herald: once the user completed what the
 * network asked, the account works again. One long-lived workflow per flagged connection
 * (`checkpoint:<connection id>`) asks the network every `intervalMs` (a day in production) and
 * clears the flag when the answer is no longer a checkpoint. Reconnecting clears it at once.
 */
export interface CheckpointProbes {
  /** Makes sure the connection's probe runs; a probe already running for it is left alone. */
  flagged(connection: ConnectedAccount): Promise<void>;
}

/** The production period between two probes of one account. */
export const DEFAULT_CHECKPOINT_PROBE_INTERVAL_MS = 24 * 3600_000;

export interface CheckpointProbeInput {
  connectionId: string;
  intervalMs: number;
  /** Probes per run before the history is handed to a fresh run (default 100; tests use a few). */
  probesPerRun?: number;
}

/**
 * What one probe found: the network lets the account publish again (`cleared`, flag removed); it
 * still refuses or could not be asked (`still_checkpointed`, asked again next period); or there
 * is nothing left to probe (`gone`: the connection was deleted, disconnected, reconnected
 * meanwhile, or its authorization is dead and it must be reconnected, which clears the flag).
 */
export type CheckpointProbeOutcome = 'cleared' | 'still_checkpointed' | 'gone';
