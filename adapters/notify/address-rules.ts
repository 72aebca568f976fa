import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isReservedAddress } from '../net/reserved-addresses';

/** The shared SSRF address list (adapters/net/reserved-addresses.ts). */
export const isBlockedAddress = isReservedAddress;

/**
 * Which addresses notifications may go to (SSRF): not loopback, private, link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT, multicast or other reserved ranges, unless the
 * host (any port) or `host:port` is allow-listed by configuration (tests and the sandbox).
 */
export class AddressRules {
  private readonly allowed: Set<string>;

  constructor(allow: readonly string[]) {
    this.allowed = new Set(allow.map((a) => a.trim().toLowerCase()).filter(Boolean));
  }

  /** Host as in a URL (brackets removed, lower case) and its effective port. */
  static hostPort(url: URL): { host: string; port: string } {
    return { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: url.port || (url.protocol === 'https:' ? '443' : '80') };
  }

  isAllowed(host: string, port: string): boolean {
    return this.allowed.has(host) || this.allowed.has(`${host}:${port}`);
  }

  /**
   * A `lookup` for node:http that resolves the name and refuses blocked addresses at connect
   * time: the address checked is the address connected to (no DNS-rebinding window).
   */
  guardedLookup(port: string) {
    return (hostname: string, options: object, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, '', 4);
        const list = addresses as LookupAddress[];
        const allowed = this.isAllowed(hostname.toLowerCase(), port);
        const bad = list.find((a) => isBlockedAddress(a.address));
        if (!list.length) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 4);
        if (bad && !allowed) return callback(Object.assign(new Error(`${hostname} resolves to a private or reserved address (${bad.address}); refused`), { code: 'EFORBIDDEN' }), '', 4);
        if ((options as { all?: boolean }).all) return callback(null, list);
        return callback(null, list[0]!.address, list[0]!.family);
      });
    };
  }
}
