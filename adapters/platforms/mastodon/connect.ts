/**
 * Connecting a Mastodon account: the instance's URL and an access token, checked with
 * GET /api/v1/accounts/verify_credentials (docs.joinmastodon.org/methods/accounts/#verify_credentials).
 */
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { invalidCredential, readCredentials } from '../kit/credentials';
import { str, trimBase } from '../kit/http';
import { idOf, type MastodonClient } from './client';
import { mastodonCredentialFields } from './settings';

/**
 * The instance URL submitted, reduced to its origin (and path, for instances served under one).
 * Plain http is refused unless the deployment allows it (the sandbox's loopback simulators).
 */
export function instanceBase(raw: string, allowHttp: boolean): string | undefined {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return undefined;
  return trimBase(`${url.origin}${url.pathname}`);
}

export function createMastodonConnector(client: MastodonClient, opts: { allowHttpInstances: boolean }): CredentialConnector {
  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(mastodonCredentialFields, input);
      const instance = instanceBase(values.instance_url as string, opts.allowHttpInstances);
      if (!instance) throw invalidCredential(mastodonCredentialFields, 'instance_url', 'instance_url must be an https URL');
      const token = (values.access_token as string).trim();
      const { status, body: me } = await client.call({ instance, token }, 'GET', '/api/v1/accounts/verify_credentials', 'the account');
      const id = idOf(client, status, me, 'the account');
      const username = str(me.username) ?? str(me.acct);
      if (!username) throw client.fail({ kind: 'malformed', status, what: 'the account\'s username' });
      const host = new URL(instance).host;
      return {
        identity: {
          // Account ids are unique per instance only.
          platformUserId: `${id}@${host}`,
          handle: `@${username}@${host}`,
          displayName: str(me.display_name) ?? username,
          avatarUrl: str(me.avatar) ?? '',
        },
        credentials: { instance_url: instance, access_token: token, account_id: id, username },
      };
    },
  };
}
