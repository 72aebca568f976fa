import { HeraldError, invalidInput, notFound } from '../domain/errors';
import type { ApiKey, OperatorAccount } from '../domain/operator';
import { isPlanName, PLAN_NAMES, type PlanName } from '../domain/plans';
import { DuplicateKeyError, type Storage } from '../ports/storage';
import type { Clock, IdGenerator, KeyHasher } from '../ports/system';

export interface OperatorDeps {
  storage: Pick<Storage, 'operators' | 'apiKeys'>;
  ids: IdGenerator;
  clock: Clock;
  hasher: KeyHasher;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Creates the operator account, or updates its plan when it exists. Idempotent. */
export async function ensureOperatorAccount(deps: OperatorDeps, input: { email: string; plan: string }): Promise<OperatorAccount> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw invalidInput(`"${input.email}" is not an email address.`);
  if (!isPlanName(input.plan)) throw invalidInput(`plan must be one of ${PLAN_NAMES.join(', ')}.`);
  const plan: PlanName = input.plan;
  const existing = await deps.storage.operators.findByEmail(email);
  if (existing) {
    if (existing.plan !== plan) await deps.storage.operators.updatePlan(existing.id, plan);
    return { ...existing, plan };
  }
  const account: OperatorAccount = { id: deps.ids.next('acc'), email, plan, createdAt: deps.clock.now() };
  try {
    await deps.storage.operators.insert(account);
    return account;
  } catch (err) {
    // A concurrent ensure won the race: return its account.
    if (err instanceof DuplicateKeyError) return (await deps.storage.operators.findByEmail(email))!;
    throw err;
  }
}

async function accountByEmail(deps: OperatorDeps, email: string): Promise<OperatorAccount> {
  const account = await deps.storage.operators.findByEmail(email.trim().toLowerCase());
  if (!account) throw notFound(`No operator account with email ${email}. Create it first.`);
  return account;
}

/** Issues a new API key; the secret is returned once and only its hash is stored. */
export async function issueApiKey(deps: OperatorDeps, input: { email: string; name: string }): Promise<{ secret: string; key: ApiKey }> {
  const account = await accountByEmail(deps, input.email);
  const secret = deps.hasher.newApiKey();
  const key: ApiKey = {
    id: deps.ids.next('key'),
    accountId: account.id,
    name: input.name || 'default',
    prefix: secret.slice(0, 10),
    hash: deps.hasher.hash(secret),
    createdAt: deps.clock.now(),
    revokedAt: null,
    lastUsedAt: null,
  };
  await deps.storage.apiKeys.insert(key);
  return { secret, key };
}

export async function listApiKeys(deps: OperatorDeps, input: { email: string }): Promise<ApiKey[]> {
  const account = await accountByEmail(deps, input.email);
  return deps.storage.apiKeys.listByAccount(account.id);
}

export async function revokeApiKey(deps: OperatorDeps, input: { email: string; keyId: string }): Promise<void> {
  const account = await accountByEmail(deps, input.email);
  const revoked = await deps.storage.apiKeys.revoke(account.id, input.keyId, deps.clock.now());
  if (!revoked) throw new HeraldError('not_found', `No active key ${input.keyId} for ${input.email}.`);
}
