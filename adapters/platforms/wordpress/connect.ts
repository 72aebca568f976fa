/**
 * Connecting a WordPress site: the site URL, a username and an application password, checked with
 * GET /wp-json/wp/v2/users/me?context=edit (the user and its capabilities).
 */
import { invalidInput } from '../../../core/domain/errors';
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { invalidCredential, readCredentials } from '../kit/credentials';
import { isObject, str, trimBase } from '../kit/http';
import { instanceRefusal } from '../kit/instance';
import { isPublicHost } from '../kit/public-host';
import type { DestinationRules } from '../../net/destination';
import type { WordPressClient } from './client';
import { wordpressCredentialFields } from './settings';

/** The site's base URL: https (http only where configured, for local sites and the sandbox), no query or credentials. */
export function siteBase(raw: string, allowHttp: boolean): string | undefined {
  const url = new URL(raw);
  if (url.username || url.password || url.search || url.hash) return undefined;
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return undefined;
  // Local and private addresses only where http sites are allowed (local deployments, the sandbox).
  if (!allowHttp && !isPublicHost(url)) return undefined;
  return trimBase(`${url.origin}${url.pathname.replace(/\/wp-json\/?.*$/, '')}`);
}

export function createWordPressConnector(client: WordPressClient, opts: { allowHttp: boolean; rules: DestinationRules }): CredentialConnector {
  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(wordpressCredentialFields, input);
      const site = siteBase(values.site_url as string, opts.allowHttp);
      if (!site) throw invalidCredential(wordpressCredentialFields, 'site_url', 'site_url must be the public https address of the site, without query or credentials');
      const refusal = await instanceRefusal(new URL(site), opts.rules);
      if (refusal) throw invalidCredential(wordpressCredentialFields, 'site_url', `site_url: ${refusal}`);
      const username = (values.username as string).trim();
      const password = (values.application_password as string).trim().replace(/\s+/g, '');
      const me = await client.call({ site, username, password }, 'GET', '/users/me?context=edit');
      const caps = isObject(me.capabilities) ? me.capabilities : {};
      if (caps.publish_posts !== true || caps.upload_files !== true) {
        throw invalidInput(`The WordPress user ${username} cannot publish posts and upload files: give it the Author role (or higher), then try again.`, { field: 'username' });
      }
      const avatars = isObject(me.avatar_urls) ? me.avatar_urls : {};
      const name = typeof values.name === 'string' ? values.name.trim() : undefined;
      const host = new URL(site).host;
      return {
        identity: {
          platformUserId: `${host}${new URL(site).pathname.replace(/\/$/, '')}#${me.id}`,
          handle: `${str(me.slug) ?? username}@${host}`,
          displayName: name ?? str(me.name) ?? username,
          avatarUrl: str(avatars['96']) ?? str(avatars['48']) ?? '',
        },
        credentials: { site_url: site, username, application_password: password, user_id: String(me.id) },
      };
    },
  };
}
