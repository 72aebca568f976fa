import { probeCheckpoint, type CheckpointProbeDeps } from '../../core/usecases/checkpoint-probe';

/** The activity of the checkpoint probe workflow (its name is recorded in workflow histories). */
export function createCheckpointProbeActivities(deps: CheckpointProbeDeps) {
  return {
    probeCheckpoint: (input: { connectionId: string }) => probeCheckpoint(deps, input),
  };
}

export type CheckpointProbeActivities = ReturnType<typeof createCheckpointProbeActivities>;
