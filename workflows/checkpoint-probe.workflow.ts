/*
 * Durability rule: this workflow's command sequence (which activities, timers and markers, in
 * which order) is part of every history recorded by earlier code. Any change to it goes under
 * `patched('<id>')` (old branch kept), and test/replay replays the committed histories to prove it.
 */
import { continueAsNew, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { CheckpointProbeInput, CheckpointProbeOutcome } from '../core/ports/checkpoint-probes';
import type { CheckpointProbeActivities } from './activities/checkpoint-probe';

/** Probes per run before the history is handed to a fresh run (a year of daily probes is ~365), unless the input says. */
const PROBES_PER_RUN = 100;

/**
 * The checkpoint probe of one connected account (`checkpoint:<connection id>`): every
 * `intervalMs` it asks the network whether the checkpoint is gone, and ends once the flag is
 * lifted or there is nothing left to probe. A probe that cannot run at all (storage down through
 * every retry) counts as "still checkpointed": the next period asks again.
 */
export async function checkpointProbeWorkflow(input: CheckpointProbeInput): Promise<CheckpointProbeOutcome> {
  const { probeCheckpoint } = proxyActivities<CheckpointProbeActivities>({
    startToCloseTimeout: '2 minutes',
    retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
  });
  for (let probes = 0; probes < (input.probesPerRun ?? PROBES_PER_RUN); probes += 1) {
    await sleep(input.intervalMs);
    let outcome: CheckpointProbeOutcome = 'still_checkpointed';
    try {
      outcome = await probeCheckpoint({ connectionId: input.connectionId });
    } catch (err) {
      if (isCancellation(err)) throw err;
    }
    if (outcome !== 'still_checkpointed') return outcome;
  }
  return continueAsNew<typeof checkpointProbeWorkflow>(input);
}
