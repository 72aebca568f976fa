import { isPublicHost } from '../../adapters/platforms/kit/public-host';
import { siteBase } from '../../adapters/platforms/wordpress';
import { instanceBase } from '../../adapters/platforms/lemmy';
import { relayUrl } from '../../adapters/platforms/nostr';

describe('per-connection addresses', () => {
  it.each([
    ['https://blog.example.com', true], ['https://93.184.216.34', true], ['https://[2606:2800:220:1::1]', true],
    ['https://127.0.0.1', false], ['https://10.1.2.3', false], ['https://172.20.0.1', false], ['https://192.168.1.10', false],
    ['https://169.254.169.254', false], ['https://100.64.0.1', false], ['https://[::1]', false], ['https://[fd00::1]', false],
    ['https://[::ffff:127.0.0.1]', false], ['https://localhost', false], ['https://wp.local', false], ['https://db.internal', false], ['https://intranet', false],
  ])('%s public: %s', (url, expected) => {
    expect(isPublicHost(new URL(url))).toBe(expected);
  });

  it('WordPress sites, Lemmy instances and Nostr relays on private addresses are refused unless the insecure option is on', () => {
    expect(siteBase('https://10.0.0.5/blog', false)).toBeUndefined();
    expect(siteBase('http://10.0.0.5/blog', true)).toBe('http://10.0.0.5/blog');
    expect(siteBase('https://blog.example.com/wp-json/', false)).toBe('https://blog.example.com');
    expect(instanceBase('https://localhost:8536', false)).toBeUndefined();
    expect(instanceBase('https://lemmy.world', false)).toBe('https://lemmy.world');
    expect(relayUrl('wss://127.0.0.1:7777', false)).toBeUndefined();
    expect(relayUrl('ws://127.0.0.1:7777/r', true)).toBe('ws://127.0.0.1:7777/r');
    expect(relayUrl('wss://relay.damus.io', false)).toBe('wss://relay.damus.io');
  });
});
