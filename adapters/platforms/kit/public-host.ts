/**
 * Per-connection addresses (a WordPress site, a Lemmy instance, Nostr relays) come from the people
 * connecting: without a check they could point Herald's workers at its own private network. This
 * refuses, when connecting, hosts that name loopback, private, link-local (cloud metadata) and
 * other reserved addresses, written as IP literals or as local names. Names that resolve to such
 * addresses are refused at every call, where the address is resolved, checked and pinned
 * (kit/instance.ts, adapters/net/destination.ts); deployments that publish to local services
 * turn both checks off with the network's allow-insecure option.
 */
import { isIP } from 'node:net';
import { isReservedAddress } from '../../net/reserved-addresses';

const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/** Whether a URL's host may be called from Herald's workers: a public name or a public IP literal. */
export function isPublicHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return !isReservedAddress(host);
  return host.includes('.') && !LOCAL_NAME.test(host);
}
