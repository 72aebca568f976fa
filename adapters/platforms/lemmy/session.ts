/**
 * A Lemmy session: the login (POST /api/v3/user/login → JWT) and the stored credentials it lives
 * in. Lemmy JWTs do not say when they expire; a refused one (not_logged_in) is renewed by logging
 * in again with the stored password, which the connection session does once on auth_expired.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext, PlatformCredentials, TokenRefresher } from '../../../core/ports/platform';
import { str } from '../kit/http';
import type { LemmyClient } from './client';

export interface LemmyAccount { instance: string; username: string; password: string; jwt: string; communityId: number }

export function accountOf(ctx: CallContext | { credentials: PlatformCredentials }): LemmyAccount {
  const { instance_url: instance, username, password, jwt, community_id: community } = ctx.credentials;
  const communityId = Number(community);
  if (!instance || !username || !password || !jwt || !Number.isInteger(communityId)) {
    throw new PlatformError('lemmy', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Lemmy connection is incomplete; reconnect the account.');
  }
  return { instance, username, password, jwt, communityId };
}

export async function login(client: LemmyClient, instance: string, username: string, password: string): Promise<string> {
  const answer = await client.call(instance, 'POST', '/user/login', { username_or_email: username, password }, undefined, 'a login token',
    (b) => typeof b.jwt === 'string' || b.verify_email_sent === true || b.registration_created === true);
  const jwt = str(answer.jwt);
  if (!jwt) {
    throw new PlatformError('lemmy', { kind: 'auth_expired', reason: 'login_pending' },
      'Lemmy accepted the login but issued no token: the email is not verified or the registration is not approved yet.');
  }
  return jwt;
}

export function createLemmyRefresher(client: LemmyClient): TokenRefresher {
  return {
    async refresh(credentials) {
      const account = accountOf({ credentials });
      return { ...credentials, jwt: await login(client, account.instance, account.username, account.password) };
    },
  };
}
