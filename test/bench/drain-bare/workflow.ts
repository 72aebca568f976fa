/**
 * The drain bench's baseline: a workflow of the same history shape as a one-network text upload
 * whose first call runs inline (workflow started, one workflow task holding one local activity,
 * workflow completed), with the same simulator call inside and no database at all. The two
 * `patched` calls give it the two version markers (and search-attribute upserts) Herald's upload
 * workflow records on that path, so both histories hold the same 10 events.
 */
import { patched, proxyLocalActivities } from '@temporalio/workflow';
import type { BareActivities } from './activities';

const { publish } = proxyLocalActivities<BareActivities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 1 } });

export async function bareUploadWorkflow(input: { webhookUrl: string; content: string }): Promise<string> {
  if (patched('bench-bare-1') && patched('bench-bare-2')) return publish(input);
  throw new Error('unreachable: a new run always takes both patches');
}
