/**
 * The workflow tier's bundles, made once per jest run instead of once per test file (bundling is
 * the slow part of a file's setup on a loaded machine): each pool's entry point is bundled into a
 * scratch directory the test workers read (HERALD_WORKFLOW_TIER_BUNDLES); global-teardown.ts
 * removes it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { BUNDLES, BUNDLES_ENV, quietLogger } from './bundles';

export default async function bundleWorkflowTier(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-workflow-tier-'));
  for (const [pool, workflowsPath] of Object.entries(BUNDLES)) {
    const { code } = await bundleWorkflowCode({ workflowsPath, logger: quietLogger });
    writeFileSync(path.join(dir, `${pool}.js`), code);
  }
  process.env[BUNDLES_ENV] = dir;
}
