import { rmSync } from 'node:fs';
import { BUNDLES_ENV } from './bundles';

/** Removes the bundles global-setup.ts made. */
export default function removeWorkflowTierBundles(): void {
  const dir = process.env[BUNDLES_ENV];
  if (dir) rmSync(dir, { recursive: true, force: true });
}
