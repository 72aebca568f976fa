/** Connecting a DEV account: an API key, checked with GET /api/users/me. */
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { readCredentials } from '../kit/credentials';
import { str } from '../kit/http';
import type { DevtoClient } from './client';
import { devtoCredentialFields } from './settings';

export function createDevtoConnector(client: DevtoClient): CredentialConnector {
  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(devtoCredentialFields, input);
      const apiKey = (values.api_key as string).trim();
      const { status, body: me } = await client.call(apiKey, 'GET', '/users/me', 'the user');
      const username = str(me.username);
      if (!username) throw client.fail({ kind: 'malformed', status, what: 'the user\'s username' });
      return {
        identity: { platformUserId: String(me.id), handle: username, displayName: str(me.name) ?? username, avatarUrl: str(me.profile_image) ?? '' },
        credentials: { api_key: apiKey, user_id: String(me.id), username },
      };
    },
  };
}
