/**
 * The one record a network folder exports (adapters/platforms/<network>/index.ts). The registry,
 * the OAuth network list, the environment wiring and the sandbox wiring are all derived from the
 * records listed in adapters/platforms/index.ts: adding a network is one folder and one line there.
 */
import type { Platform } from '../../../core/domain/platforms';
import type { PlatformAdapter, PlatformDescriptor } from '../../../core/ports/platform';
import type { EnvRead } from './env';
import type { Now } from './http';

/** Options every adapter factory takes besides its own. */
export interface CommonOptions {
  /** JSON call timeout (`HERALD_PLATFORM_TIMEOUT_MS`). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: Now;
}

/** What OAuth networks add: the app's client credentials (`HERALD_<NET>_CLIENT_ID` / `_SECRET`). */
export interface OAuthClientOptions {
  clientId: string;
  clientSecret: string;
}

/** The options the environment may set: everything but the common ones and the client credentials. */
export type Tunable<O> = Omit<O, keyof CommonOptions | keyof OAuthClientOptions>;
/**
 * How docs/configuration.md shows a network's variable (generated, apps/docs/): what it changes and
 * the factory's default when it is unset; `type` when the reader is not one of kit/env.ts's.
 */
export interface EnvDoc { meaning: string; default: string; type?: string }
export type EnvMap<O> = { [K in keyof Tunable<O>]-?: readonly [variable: string, read: EnvRead<NonNullable<Tunable<O>[K]>>, doc: EnvDoc] };

export interface NetworkModule<Id extends Platform = Platform, O extends CommonOptions = CommonOptions> {
  id: Id;
  /** Its `id` is the record's `id` (checked when the registry is built). */
  descriptor: PlatformDescriptor;
  /** Where each tunable option comes from in the environment (base URLs, polls, flags). */
  env: Partial<EnvMap<O>>;
  /** Options that are processing-poll intervals: the sandbox sets them to its processing time. */
  pollOptions?: ReadonlyArray<keyof Tunable<O> & string>;
  create(options: O): PlatformAdapter;
}

/** Declares a network record with its option types checked against its factory. */
export const defineNetwork = <Id extends Platform, O extends CommonOptions>(module: NetworkModule<Id, O>): NetworkModule<Id, O> => module;

/** The variables holding an OAuth network's client credentials. */
export function clientVariables(network: string): { id: string; secret: string } {
  const net = network.toUpperCase();
  return { id: `HERALD_${net}_CLIENT_ID`, secret: `HERALD_${net}_CLIENT_SECRET` };
}

export const isOAuth = (module: NetworkModule<Platform, never> | { descriptor: PlatformDescriptor }): boolean => module.descriptor.connect === 'oauth';
