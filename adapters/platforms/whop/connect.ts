/** Connecting a Whop forum: an API key and an experience id, checked with GET /experiences/:id. */
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { readCredentials } from '../kit/credentials';
import { isObject, str } from '../kit/http';
import type { WhopClient } from './client';
import { whopCredentialFields } from './settings';

export function createWhopConnector(client: WhopClient): CredentialConnector {
  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(whopCredentialFields, input);
      const apiKey = (values.api_key as string).trim();
      const experienceId = (values.experience_id as string).trim();
      const experience = await client.call(apiKey, 'GET', `/experiences/${encodeURIComponent(experienceId)}`, 'the experience');
      const company = isObject(experience.company) ? experience.company : {};
      const name = str(experience.name) ?? experienceId;
      const companyName = str(company.title) ?? str(company.name);
      return {
        identity: {
          platformUserId: experience.id,
          handle: companyName ? `${companyName} / ${name}` : name,
          displayName: name,
          avatarUrl: isObject(experience.image) ? str(experience.image.url) ?? '' : '',
        },
        credentials: { api_key: apiKey, experience_id: experience.id, ...(str(company.id) ? { company_id: str(company.id)! } : {}) },
      };
    },
  };
}
