/**
 * Connecting a listmonk instance: its URL, an API user and token, checked with GET /api/lists
 * (which also proves the lists named as defaults exist).
 */
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { invalidCredential, readCredentials } from '../kit/credentials';
import { isObject } from '../kit/http';
import { instanceBase } from '../kit/instance';
import type { Resolver } from '../../net/destination';
import type { ListmonkClient } from './client';
import { listmonkCredentialFields } from './settings';

export function createListmonkConnector(client: ListmonkClient, opts: { allowPrivateInstances: boolean; resolve?: Resolver }): CredentialConnector {
  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(listmonkCredentialFields, input);
      const url = new URL(values.instance_url as string);
      const instance = await instanceBase(url.toString(), { allowPrivate: opts.allowPrivateInstances, schema: listmonkCredentialFields, field: 'instance_url', resolve: opts.resolve });
      const account = { instance, user: (values.api_user as string).trim(), token: (values.api_token as string).trim() };
      const data = await client.call(account, 'GET', '/api/lists?minimal=true&per_page=all', 'the lists');
      const lists = Array.isArray(data) ? data : isObject(data) && Array.isArray(data.results) ? data.results : undefined;
      if (!lists) throw client.fail({ kind: 'malformed', status: 200, what: 'the lists' });
      const known = new Set(lists.filter(isObject).map((l) => String(l.id)));
      const defaults = (values.list_ids as string[] | undefined) ?? [];
      const missing = defaults.filter((id) => !known.has(id));
      if (missing.length) throw invalidCredential(listmonkCredentialFields, 'list_ids', `The instance has no list ${missing.join(', ')}`);
      return {
        identity: { platformUserId: `${account.user}@${url.host}${url.pathname.replace(/\/+$/, '')}`, handle: `${account.user}@${url.host}`, displayName: url.host, avatarUrl: '' },
        credentials: { instance_url: instance, api_user: account.user, api_token: account.token, ...(defaults.length ? { list_ids: defaults.join(',') } : {}) },
      };
    },
  };
}
