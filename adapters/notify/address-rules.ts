import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Which addresses notifications may go to (SSRF): not loopback, private, link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT, multicast or other reserved ranges, unless the
 * host (any port) or `host:port` is allow-listed by configuration (tests and the sandbox).
 */
// Two lists: node's BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules too, so a
// `::ffff:0:0/96` rule in one list would refuse every IPv4 address.
const BLOCKED_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED_V4.addSubnet(net, prefix, 'ipv4');
const BLOCKED_V6 = new BlockList();
for (const [net, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32], ['fd00:ec2::254', 128]] as const) BLOCKED_V6.addSubnet(net, prefix, 'ipv6');

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (!family) return true;
  if (family === 4) return BLOCKED_V4.check(address, 'ipv4');
  // IPv4-mapped (::ffff:a.b.c.d or ::ffff:xxxx:xxxx): judged as the IPv4 address it maps to.
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (mapped) {
    const v4 = mapped[1] ?? [parseInt(mapped[2]!, 16) >> 8, parseInt(mapped[2]!, 16) & 255, parseInt(mapped[3]!, 16) >> 8, parseInt(mapped[3]!, 16) & 255].join('.');
    return BLOCKED_V4.check(v4, 'ipv4');
  }
  return BLOCKED_V6.check(address, 'ipv6');
}

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
