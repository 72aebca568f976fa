/**
 * Per-connection addresses (a WordPress site, a Lemmy instance, Nostr relays) come from the people
 * connecting: without a check they could point Herald's workers at its own private network. This
 * refuses hosts that name loopback, private, link-local (cloud metadata) and other reserved
 * addresses, written as IP literals or as local names. Names that resolve to such addresses are not
 * caught here (that needs the DNS answer at connection time); deployments that publish to local
 * services turn the check off with the network's allow-insecure option.
 */
import { BlockList, isIP } from 'node:net';

const reserved = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) reserved.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 127], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) reserved.addSubnet(net, prefix, 'ipv6');

const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/** Whether a URL's host may be called from Herald's workers: a public name or a public IP literal. */
export function isPublicHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family === 4) return !reserved.check(host, 'ipv4');
  if (family === 6) {
    // An IPv4-mapped address (::ffff:7f00:1 is 127.0.0.1) is judged as the IPv4 address it maps.
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(host);
    if (mapped) {
      const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
      return !reserved.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
    }
    return !reserved.check(host, 'ipv6');
  }
  return host.includes('.') && !LOCAL_NAME.test(host);
}
