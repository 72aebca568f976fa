/**
 * Connecting a Mastodon account: the instance's URL and an access token, checked with
 * GET /api/v1/accounts/verify_credentials (docs.joinmastodon.org/methods/accounts/#verify_credentials).
 */
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { readCredentials } from '../kit/credentials';
import { str } from '../kit/http';
import { instanceBase } from '../kit/instance';
import type { Resolver } from '../../net/destination';
import { idOf, type MastodonClient } from './client';
import { mastodonCredentialFields } from './settings';

export function createMastodonConnector(client: MastodonClient, opts: { allowPrivateInstances: boolean; resolve?: Resolver }): CredentialConnector {
  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(mastodonCredentialFields, input);
      const instance = await instanceBase(values.instance_url as string, { allowPrivate: opts.allowPrivateInstances, schema: mastodonCredentialFields, field: 'instance_url', resolve: opts.resolve });
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
