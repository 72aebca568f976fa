/**
 * The one record a simulator folder exports for the sandbox (ops/simulators/<network>/sandbox.ts):
 * how to start the simulator, and how to seed it with an app and an end-user account. The sandbox
 * daemon (apps/sandbox) derives its ports, fixtures and environment from these records, found by
 * network id (ops/simulators/index.ts); the variables an option maps to come from the adapter's own record.
 */
export interface Closable {
  close(): Promise<void>;
}

export interface SandboxSeed<Account> {
  /** The adapter's options (by option name) that point it at this simulator. */
  options: Record<string, string>;
  /** The OAuth app's client credentials (OAuth networks only). */
  client?: { clientId: string; clientSecret: string };
  /** SANDBOX_* variables for people and scripts: the credentials to submit when connecting. */
  variables?: Record<string, string>;
  /** Which of `variables` are secrets (written to sandbox.env, never printed). */
  secretVariables?: readonly string[];
  /** What tests and people need to drive the seeded fixtures. */
  account: Account;
}

export interface SandboxNetwork<Id extends string = string, Sim extends Closable = Closable, Account = unknown> {
  id: Id;
  /** The daemon's fixed port. */
  port: number;
  start(opts: { port: number; seed: string; processingMs: number }): Promise<Sim>;
  /**
   * Creates the fixtures. Simulators derive ids and secrets from the seed and a per-kind counter,
   * so the calls must stay in this order: append, never reorder. `callbackUrl` is the one redirect
   * URI the seeded OAuth app accepts (Herald's callback).
   */
  seed(sim: Sim, callbackUrl: string): SandboxSeed<Account>;
}

/**
 * Each simulator folder's record type by network id, added by the folder itself
 * (`declare module '../kit/sandbox' { interface SandboxNetworks { <id>: typeof sandboxNetwork } }`),
 * so the sandbox's simulators and accounts are typed per network without a central list.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface SandboxNetworks {}

export const defineSandboxNetwork = <Id extends string, Sim extends Closable, Account>(
  network: SandboxNetwork<Id, Sim, Account>,
): SandboxNetwork<Id, Sim, Account> => network;

/** The app of an OAuth network: its client id and the one redirect URI it accepts (Herald's callback). */
export interface OAuthApp {
  clientId: string;
  redirectUri: string;
}
