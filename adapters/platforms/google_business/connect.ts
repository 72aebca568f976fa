/** Connecting a Google account that manages Business Profile locations (Google OAuth 2, scope business.manage). */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountIdentity, OAuthConnector, TokenRefresher } from '../../../core/ports/platform';
import { createGoogleConnect } from '../kit/google-connect';
import { isObject, str } from '../kit/http';
import type { GoogleBusinessClient } from './client';

export const GBP_SCOPES = ['https://www.googleapis.com/auth/business.manage'] as const;

export function createGoogleBusinessConnect(client: GoogleBusinessClient, opts: { clientId: string; clientSecret: string; authBase: string; tokenUrl: string }): { oauth: OAuthConnector; refresher: TokenRefresher } {
  /** The user's personal Business Profile account (a stable id per Google user), else the first one listed. */
  async function readIdentity(accessToken: string): Promise<AccountIdentity> {
    const answer = await client.call(accessToken, 'GET', client.accounts('accounts?pageSize=20'));
    const accounts = Array.isArray(answer.accounts) ? answer.accounts.filter(isObject) : [];
    const account = accounts.find((a) => a.type === 'PERSONAL') ?? accounts[0];
    const id = typeof account?.name === 'string' ? account.name.split('/').at(-1) : undefined;
    if (!account || !id) {
      throw new PlatformError('google_business', { kind: 'rejected', code: 'gbp_account_required' }, 'The Google account has no Business Profile account: create a Business Profile, then connect again.');
    }
    const name = str(account.accountName) ?? id;
    return { platformUserId: id, handle: name, displayName: name, avatarUrl: '' };
  }

  return createGoogleConnect({
    platform: 'google_business', label: 'Google Business', scopes: GBP_SCOPES, consentHint: 'allow managing the business', identityField: 'account_id', readIdentity,
    ...opts, transport: { fetch: client.fetch, timeoutMs: client.timeoutMs, now: client.now, fail: (outcome) => client.failure(outcome) },
  });
}
