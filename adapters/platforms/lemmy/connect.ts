/**
 * Connecting a Lemmy account to a community: log in (POST /api/v3/user/login), read who that is
 * (GET /api/v3/site, my_user) and resolve the community by name (GET /api/v3/community?name=).
 */
import { invalidInput } from '../../../core/domain/errors';
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { invalidCredential, readCredentials } from '../kit/credentials';
import { isObject, str, trimBase, type Json } from '../kit/http';
import { instanceRefusal } from '../kit/instance';
import { isPublicHost } from '../kit/public-host';
import type { DestinationRules } from '../../net/destination';
import type { LemmyClient } from './client';
import { login } from './session';
import { COMMUNITY_REF, lemmyCredentialFields } from './settings';

const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** The instance's base URL: https (http only where configured: local instances, the sandbox), nothing but origin and path. */
export function instanceBase(raw: string, allowHttp: boolean): string | undefined {
  const url = new URL(raw);
  if (url.username || url.password || url.search || url.hash) return undefined;
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return undefined;
  // Local and private addresses only where http instances are allowed (local deployments, the sandbox).
  if (!allowHttp && !isPublicHost(url)) return undefined;
  return trimBase(`${url.origin}${url.pathname}`);
}

export function createLemmyConnector(client: LemmyClient, opts: { allowHttp: boolean; rules: DestinationRules }): CredentialConnector {
  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(lemmyCredentialFields, input);
      const instance = instanceBase(values.instance_url as string, opts.allowHttp);
      if (!instance) throw invalidCredential(lemmyCredentialFields, 'instance_url', 'instance_url must be the public https address of the instance');
      const refusal = await instanceRefusal(new URL(instance), opts.rules);
      if (refusal) throw invalidCredential(lemmyCredentialFields, 'instance_url', `instance_url: ${refusal}`);
      const username = (values.username as string).trim();
      const password = values.password as string;
      const [, communityName, communityHost] = COMMUNITY_REF.exec((values.community as string).trim())!;
      const jwt = await login(client, instance, username, password);
      const site = await client.call(instance, 'GET', '/site', undefined, jwt, 'the logged-in user',
        (b) => isObject(b.my_user) && isObject(obj(b.my_user).local_user_view));
      const person = obj(obj(obj(site.my_user).local_user_view).person);
      const communityRef = communityHost ? `${communityName}@${communityHost}` : communityName!;
      const found = await client.call(instance, 'GET', `/community?name=${encodeURIComponent(communityRef)}`, undefined, jwt, 'the community',
        (b) => typeof obj(obj(b.community_view).community).id === 'number');
      const community = obj(obj(found.community_view).community);
      if (community.removed === true || community.deleted === true) {
        throw invalidInput(`The Lemmy community ${communityRef} was removed or deleted; give another community.`, { field: 'community' });
      }
      const host = new URL(instance).host;
      const personName = str(person.name) ?? username;
      const title = str(community.title) ?? communityRef;
      const name = typeof values.name === 'string' ? values.name.trim() : undefined;
      return {
        identity: {
          platformUserId: `${str(person.actor_id) ?? `${host}/u/${personName}`} → ${str(community.actor_id) ?? `${host}/c/${communityRef}`}`,
          handle: `@${personName}@${host}`,
          displayName: name ?? `${str(person.display_name) ?? personName} in ${title}`,
          avatarUrl: str(person.avatar) ?? '',
        },
        credentials: {
          instance_url: instance, username, password, jwt,
          community_id: String(community.id), community_name: communityRef, ...(typeof person.id === 'number' ? { person_id: String(person.id) } : {}),
        },
      };
    },
  };
}
