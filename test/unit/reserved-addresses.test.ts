import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isLoopbackAddress, isReservedAddress } from '../../adapters/net/reserved-addresses';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { createUrlMediaFetcher } from '../../adapters/media/url-fetcher';
import { instanceBase } from '../../adapters/platforms/kit/instance';
import { mastodonCredentialFields } from '../../adapters/platforms/mastodon/settings';

/**
 * The one SSRF address list. Its IPv4-mapped rule once sat in the same node BlockList as the IPv4
 * rules, where it matched every IPv4 address: every public media URL and self-hosted instance was
 * refused. Public addresses are checked here as well as private ones (IP literals: no DNS).
 */
describe('reserved addresses', () => {
  it('public IPv4 and IPv6 addresses are not reserved', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '151.101.1.69', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:93.184.216.34', '::ffff:5db8:d822']) {
      expect({ address, reserved: isReservedAddress(address) }).toEqual({ address, reserved: false });
    }
  });

  it('loopback, private, link-local, CGNAT, multicast and reserved ranges are, mapped or not', () => {
    for (const address of [
      '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
      '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', 'not-an-ip',
    ]) {
      expect({ address, reserved: isReservedAddress(address) }).toEqual({ address, reserved: true });
    }
  });

  it('IPv6 ranges that embed or tunnel to IPv4 are judged by the address they reach, or refused', () => {
    const cases: [string, boolean][] = [
      // IPv4-compatible ::/96 (deprecated): refused whatever it embeds.
      ['::7f00:1', true], ['::8.8.8.8', true], ['::a00:1', true],
      // NAT64 64:ff9b::/96: the IPv4 address the translator reaches.
      ['64:ff9b::7f00:1', true], ['64:ff9b::10.0.0.1', true], ['64:ff9b::a9fe:a9fe', true], ['64:ff9b::808:808', false],
      ['64:ff9b:1::1', true],
      // 6to4 2002::/16: the relay delivers to the IPv4 address in bits 16-48.
      ['2002:7f00:1::1', true], ['2002:c0a8:101::1', true], ['2002:a9fe:a9fe::', true], ['2002:808:808::1', false],
      // Teredo 2001::/32: refused.
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true], ['2001::1', true],
      ['2001:4860:4860::8888', false], ['fe80::1%eth0', true], ['fd00:ec2::254', true],
    ];
    for (const [address, reserved] of cases) expect({ address, reserved: isReservedAddress(address) }).toEqual({ address, reserved });
  });

  it('tells loopback from the other reserved addresses', () => {
    const cases: Array<[string, boolean]> = [
      ['127.0.0.1', true], ['127.255.0.9', true], ['::1', true], ['::ffff:127.0.0.1', true], ['0:0:0:0:0:0:0:1', true],
      ['10.0.0.1', false], ['169.254.169.254', false], ['0.0.0.0', false], ['::', false], ['fe80::1', false], ['8.8.8.8', false], ['localhost', false],
    ];
    for (const [address, loopback] of cases) expect({ address, loopback: isLoopbackAddress(address) }).toEqual({ address, loopback });
  });

  it('the media URL fetcher accepts a public address and refuses a mapped private one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-reserved-'));
    try {
      const fetcher = createUrlMediaFetcher(createLocalMediaStore(dir), { allow: [], maxBytes: 1024, timeoutMs: 1000 });
      await expect(fetcher.vet('https://93.184.216.34/clip.mp4', 'video')).resolves.toBeUndefined();
      await expect(fetcher.vet('http://[2606:4700:4700::1111]/clip.mp4', 'video')).resolves.toBeUndefined();
      await expect(fetcher.vet('http://[::ffff:169.254.169.254]/latest/meta-data/', 'video')).rejects.toMatchObject({ errorCode: 'media_url_forbidden' });
      await expect(fetcher.vet('http://10.0.0.7/clip.mp4', 'video')).rejects.toMatchObject({ errorCode: 'media_url_forbidden' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a self-hosted instance on a public address is accepted, a private one refused', async () => {
    const opts = { allowPrivate: false, schema: mastodonCredentialFields, field: 'instance_url' };
    await expect(instanceBase('https://93.184.216.34/', opts)).resolves.toBe('https://93.184.216.34');
    await expect(instanceBase('https://192.168.0.10/', opts)).rejects.toMatchObject({ kind: 'invalid_input' });
  });
});
