import type { PlanName } from './plans';

/** The integrator that holds API keys: owns profiles, uploads and settings. */
export interface OperatorAccount {
  id: string;
  email: string;
  plan: PlanName;
  createdAt: Date;
}

/** An API key. Only a hash of the secret is stored; `prefix` lets people tell keys apart. */
export interface ApiKey {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  hash: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}
