/**
 * Where a call made for a tenant may connect (SSRF, DNS rebinding). The host of the URL is
 * resolved once, every address it resolves to is checked against the reserved list, and the
 * connection goes to that checked address (`pinnedLookup`), never to a second answer of the DNS:
 * a name that answers a public address to the check and 127.0.0.1 to the connection reaches
 * nothing. Media URLs, webhook and Slack addresses and self-hosted instances all go through here
 * (adapters/net/outbound-http.ts sends the requests).
 */
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { isLoopbackAddress, isReservedAddress } from './reserved-addresses';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a name resolves to; tests give a fake one. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** A URL's host as an address or name: brackets removed, lower case. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** The URL's port, or its scheme's default port. */
export const effectivePort = (url: URL): string => url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80');

/**
 * Destinations reachable although their addresses are reserved (tests, the sandbox's loopback
 * simulators, an operator's own services). `host:port` (`[::1]:8080` for IPv6) names one port;
 * a bare `host` only the default port of the URL's scheme (80 for http, 443 for https), never
 * every port of the host.
 */
export class AllowList {
  private readonly keys: ReadonlySet<string>;

  constructor(entries: readonly string[]) {
    this.keys = new Set(entries.map((e) => e.trim()).filter(Boolean).map(AllowList.keyOf));
  }

  private static keyOf(entry: string): string {
    const text = entry.toLowerCase();
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
    const plain = /^([^:[\]]+)(?::(\d+))?$/.exec(text);
    const [host, port] = bracketed ? [bracketed[1], bracketed[2]] : isIP(text) === 6 ? [text, undefined] : plain ? [plain[1], plain[2]] : [];
    if (!host) throw new Error(`allow-list entry "${entry}" is neither host nor host:port`);
    return `${host} ${port ?? 'default'}`;
  }

  allows(url: URL): boolean {
    const host = bareHost(url);
    return this.keys.has(`${host} ${effectivePort(url)}`) || (url.port === '' && this.keys.has(`${host} default`));
  }
}

export interface DestinationRules {
  /** Reserved destinations reachable anyway, by host and port. */
  allow?: AllowList;
  /**
   * Any address (deployments that publish to their own network: the *_ALLOW_PRIVATE_INSTANCES and
   * allow-http options; the configured Telegram API). The name is still resolved once and pinned.
   */
  anyAddress?: boolean;
  /**
   * Loopback addresses on any port (the sandbox on a developer's own machine: a receiver they run
   * beside it). Other reserved addresses stay refused. Never for deployments: loopback holds the
   * machine's own services.
   */
  loopback?: boolean;
  resolve?: Resolver;
}

export type RefusalCode = 'EFORBIDDEN' | 'ENOTFOUND' | 'EPROTO' | 'EREDIRECTS';

/** A destination refused before anything was sent. `code` is where a network error keeps its errno; `url` the hop refused. */
export class DestinationRefused extends Error {
  override name = 'DestinationRefused';
  constructor(message: string, readonly code: RefusalCode, readonly url?: URL) {
    super(message);
  }
}

export interface Destination {
  /** The checked address the connection goes to. */
  address: ResolvedAddress;
  /** A reserved address reached because the rules let it through: what it answers is not shown to tenants. */
  reserved: boolean;
}

/** Resolves the URL's host once, checks every address, and answers the one to connect to. */
export async function resolveDestination(url: URL, rules: DestinationRules): Promise<Destination> {
  const host = bareHost(url);
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await (rules.resolve ?? systemResolver)(host).catch((): ResolvedAddress[] => []);
  if (!addresses.length) throw new DestinationRefused(`${host} does not resolve`, 'ENOTFOUND', url);
  const bad = addresses.find((a) => isReservedAddress(a.address) && !(rules.loopback && isLoopbackAddress(a.address)));
  if (bad && !rules.anyAddress && !rules.allow?.allows(url)) {
    throw new DestinationRefused(`${host} resolves to a private or reserved address (${bad.address}); refused`, 'EFORBIDDEN', url);
  }
  return { address: addresses[0]!, reserved: addresses.some((a) => isReservedAddress(a.address)) };
}

/**
 * A `lookup` for node:net, node:http and ws that answers the checked address whatever it is asked:
 * the Host header and the TLS server name stay the URL's name, the socket goes to the address.
 */
export function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
}
