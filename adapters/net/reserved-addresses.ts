import { BlockList, isIP } from 'node:net';

/**
 * Addresses Herald never calls unasked (SSRF): loopback, private, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast and other reserved ranges, in IPv4 and IPv6. One
 * list for every place that calls a URL someone else gave: media URLs, webhook and Slack
 * addresses, self-hosted instance URLs (adapters/net/destination.ts applies it).
 *
 * Two lists: node's BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules too, so a
 * `::ffff:0:0/96` rule in the same list as the IPv4 rules would refuse every IPv4 address (the
 * media URL fetcher had exactly that). IPv6 addresses that carry an IPv4 address a router or
 * translator will reach (IPv4-mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are
 * judged as that IPv4 address; IPv4-compatible `::/96` (deprecated), Teredo `2001::/32` (its
 * embedded addresses are a relay's and an obfuscated client's) and local-use NAT64 are refused.
 */
const RESERVED_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) RESERVED_V4.addSubnet(net, prefix, 'ipv4');
const RESERVED_V6 = new BlockList();
for (const [net, prefix] of [
  ['::', 96], ['::ffff:0:0:0', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) RESERVED_V6.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 literal (a trailing dotted IPv4 part counts as two). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4Of = (hi: number, lo: number): string => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');

/** The IPv4 address an IPv6 address delivers to (mapped, NAT64 well-known prefix, 6to4), if any. */
function embeddedIPv4(g: number[]): string | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4Of(g[1]!, g[2]!);
  return undefined;
}

/** Whether `address` (an IP literal) is not public; anything that is not an IP counts as reserved. */
export function isReservedAddress(address: string): boolean {
  const family = isIP(address);
  if (!family) return true;
  if (family === 4) return RESERVED_V4.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  const v4 = embeddedIPv4(groups);
  if (v4) return RESERVED_V4.check(v4, 'ipv4');
  return RESERVED_V6.check(groups.map((x) => x.toString(16)).join(':'), 'ipv6');
}

/** Whether `address` (an IP literal) is this machine's loopback: 127.0.0.0/8, ::1, or IPv6 that delivers to 127/8. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return address.split('.')[0] === '127';
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 7).every((x) => x === 0) && groups[7] === 1) return true;
  const v4 = embeddedIPv4(groups);
  return v4 !== undefined && v4.split('.')[0] === '127';
}
