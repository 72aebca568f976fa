/**
 * Self-hosted networks (Mastodon, listmonk, WordPress, Lemmy) are called at an instance URL each
 * connection brings. Such a URL must not turn Herald into a proxy into private networks: every
 * call, and every redirect hop, is resolved once, checked against the reserved addresses and
 * connected to at the checked address (adapters/net/outbound-http.ts), unless the deployment
 * allows private instances (the sandbox's loopback simulators, an instance on the operator's own
 * network). The check when connecting only gives the refusal its field; it guards nothing alone.
 */
import type { HeraldError } from '../../../core/domain/errors';
import type { SettingsSchema } from '../../../core/domain/settings';
import { bareHost, DestinationRefused, resolveDestination, type DestinationRules, type Resolver } from '../../net/destination';
import { outboundFetch } from '../../net/outbound-http';
import { invalidCredential } from './credentials';
import { OVER_TRANSPORT, trimBase, type OverTransport } from './http';

/** What a self-hosted network's factory takes besides its own options. */
export interface InstanceOptions {
  /** The DNS the instance calls are checked with; tests give a fake one. */
  resolve?: Resolver;
}

/** The rules of an instance's calls: public addresses only unless private instances are allowed. */
export const instanceRules = (allowPrivate: boolean, resolve?: Resolver): DestinationRules => ({ anyAddress: allowPrivate, resolve });

const nativeFetch = globalThis.fetch;

/**
 * The fetch an instance's calls go through: the checked, pinned transport, observed like the fetch
 * the adapter was given (kit/traced-fetch.ts). A fetch of a test's own is its transport and kept.
 */
export function instanceFetch(given: typeof fetch, rules: DestinationRules): typeof fetch {
  const transport = outboundFetch(rules);
  if (given === nativeFetch) return transport;
  const over = (given as typeof fetch & { [OVER_TRANSPORT]?: OverTransport })[OVER_TRANSPORT];
  return over ? over(transport) : given;
}

/** Why the instance's host may not be called (it does not resolve, or to a reserved address), else undefined. */
export async function instanceRefusal(url: URL, rules: DestinationRules): Promise<string | undefined> {
  try {
    await resolveDestination(url, rules);
    return undefined;
  } catch (err) {
    if (!(err instanceof DestinationRefused)) throw err;
    return err.code === 'ENOTFOUND' ? `${bareHost(url)} does not resolve` : 'its host resolves to a private or reserved address';
  }
}

/** The instance's base URL (origin and path, without trailing slashes), or the invalid_input refusal naming `field`. */
export async function instanceBase(raw: string, opts: { allowPrivate: boolean; schema: SettingsSchema; field: string; resolve?: Resolver }): Promise<string> {
  const url = new URL(raw);
  const refuse = (message: string): HeraldError => invalidCredential(opts.schema, opts.field, message);
  if (url.protocol !== 'https:' && !(opts.allowPrivate && url.protocol === 'http:')) throw refuse(`${opts.field} must be an https URL`);
  const refusal = await instanceRefusal(url, instanceRules(opts.allowPrivate, opts.resolve));
  if (refusal) throw refuse(`${opts.field}: ${refusal}`);
  return trimBase(`${url.origin}${url.pathname}`);
}
