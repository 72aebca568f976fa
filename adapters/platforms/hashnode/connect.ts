/** Connecting a Hashnode publication: a personal access token and a publication id, checked with `me` and `publication(id)`. */
import { invalidCredential, readCredentials } from '../kit/credentials';
import { isObject, str } from '../kit/http';
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import type { HashnodeClient } from './client';
import { hashnodeCredentialFields } from './settings';

const VERIFY = `query HeraldVerify($publicationId: ObjectId!) {
  me { id username name profilePicture }
  publication(id: $publicationId) { id title url author { id } }
}`;

export function createHashnodeConnector(client: HashnodeClient): CredentialConnector {
  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(hashnodeCredentialFields, input);
      const token = (values.access_token as string).trim();
      const publicationId = (values.publication_id as string).trim().toLowerCase();
      const data = await client.run(token, VERIFY, { publicationId }, 'the user and publication');
      const me = isObject(data.me) ? data.me : undefined;
      if (!me || !str(me.id)) throw client.fail({ kind: 'malformed', status: 200, what: 'the user' });
      const publication = isObject(data.publication) ? data.publication : undefined;
      if (!publication) throw invalidCredential(hashnodeCredentialFields, 'publication_id', `No Hashnode publication has the id ${publicationId}`);
      const username = str(me.username) ?? String(me.id);
      const title = str(publication.title) ?? username;
      return {
        identity: { platformUserId: publicationId, handle: str(publication.url) ?? username, displayName: title, avatarUrl: str(me.profilePicture) ?? '' },
        credentials: { access_token: token, publication_id: publicationId, user_id: String(me.id), username },
      };
    },
  };
}
