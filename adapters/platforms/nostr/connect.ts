/**
 * Connecting a Nostr identity: the private key is checked (nsec or hex) and the relays are asked for
 * the account's profile (kind 0, NIP-01 REQ … EOSE): at least one relay must answer. Nothing is
 * published while connecting.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { invalidCredential, readCredentials } from '../kit/credentials';
import { isObject, str } from '../kit/http';
import { getPublicKey, nip19, type Event } from 'nostr-tools';
import type { RelayIO } from './relay';
import { nostrCredentialFields, relayUrl, secretKeyOf } from './settings';

function profileOf(events: Event[]): Record<string, unknown> {
  const latest = [...events].sort((a, b) => b.created_at - a.created_at)[0];
  try {
    const parsed: unknown = latest ? JSON.parse(latest.content) : {};
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export function createNostrConnector(io: RelayIO, opts: { allowInsecureRelays: boolean; relayTimeoutMs: number }): CredentialConnector {
  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(nostrCredentialFields, input);
      const secret = secretKeyOf(values.private_key as string)!;
      const relays: string[] = [];
      for (const raw of values.relays as string[]) {
        const url = relayUrl(raw, opts.allowInsecureRelays);
        if (!url) throw invalidCredential(nostrCredentialFields, 'relays', `relays has "${raw}", which is not a wss:// relay URL`);
        if (!relays.includes(url)) relays.push(url);
      }
      const pubkey = getPublicKey(secret);
      const answers = await Promise.all(relays.map((relay) => io.query(relay, { kinds: [0], authors: [pubkey], limit: 1 }, opts.relayTimeoutMs)));
      if (answers.every((a) => a === undefined)) {
        throw new PlatformError('nostr', { kind: 'transient' }, `None of the relays answered (${relays.join(', ')}); check the URLs and try again.`);
      }
      const profile = profileOf(answers.flatMap((a) => a ?? []));
      const npub = nip19.npubEncode(pubkey);
      const name = typeof values.name === 'string' ? values.name.trim() : undefined;
      const unreachable = relays.filter((_, i) => answers[i] === undefined);
      return {
        identity: {
          platformUserId: pubkey,
          handle: str(profile.nip05) ?? npub,
          displayName: name ?? str(profile.display_name) ?? str(profile.name) ?? `${npub.slice(0, 12)}…`,
          avatarUrl: str(profile.picture) ?? '',
        },
        credentials: {
          private_key: Buffer.from(secret).toString('hex'), public_key: pubkey, relays: relays.join(','),
          ...(unreachable.length ? { unreachable_at_connect: unreachable.join(',') } : {}),
        },
      };
    },
  };
}
