import { BlockList, isIP } from 'node:net';

/**
 * Addresses Herald never calls unasked (SSRF): loopback, private, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast and other reserved ranges, in IPv4 and IPv6. One
 * list for every place that calls a URL someone else gave: media URLs, webhook and Slack
 * addresses, self-hosted instance URLs.
 *
 * Two lists: node's BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules too, so a
 * `::ffff:0:0/96` rule in the same list as the IPv4 rules would refuse every IPv4 address (the
 * media URL fetcher had exactly that). A mapped address (::ffff:a.b.c.d) is judged as the IPv4
 * address it maps to instead.
 */
const RESERVED_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) RESERVED_V4.addSubnet(net, prefix, 'ipv4');
const RESERVED_V6 = new BlockList();
for (const [net, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32], ['fd00:ec2::254', 128]] as const) RESERVED_V6.addSubnet(net, prefix, 'ipv6');

/** Whether `address` (an IP literal) is not public; anything that is not an IP counts as reserved. */
export function isReservedAddress(address: string): boolean {
  const family = isIP(address);
  if (!family) return true;
  if (family === 4) return RESERVED_V4.check(address, 'ipv4');
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (mapped) {
    const v4 = mapped[1] ?? [parseInt(mapped[2]!, 16) >> 8, parseInt(mapped[2]!, 16) & 255, parseInt(mapped[3]!, 16) >> 8, parseInt(mapped[3]!, 16) & 255].join('.');
    return RESERVED_V4.check(v4, 'ipv4');
  }
  return RESERVED_V6.check(address, 'ipv6');
}
