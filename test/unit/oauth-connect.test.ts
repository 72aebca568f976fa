import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { s256Pkce } from '../../adapters/crypto/node-crypto';
import { PlatformError } from '../../core/domain/errors';
import { NO_SETTINGS } from '../../core/domain/settings';
import type { PlatformAdapter } from '../../core/ports/platform';
import { completeOAuth, startOAuth } from '../../core/usecases/oauth-connect';
import { createProfile, getProfile } from '../../core/usecases/profiles';
import { aWorld } from '../support/world';
import { openCredentials } from '../../core/usecases/connection-session';

function oauthNetwork() {
  const exchanges: Array<{ code: string; redirectUri: string; codeVerifier?: string }> = [];
  const adapter: PlatformAdapter = {
    descriptor: { id: 'x', displayName: 'X', connect: 'oauth', endpoints: ['text'], limits: {}, settings: NO_SETTINGS },
    oauth: {
      pkce: true,
      authorizeUrl: ({ state, redirectUri, codeChallenge }) => `https://x.example/authorize?state=${state}&redirect_uri=${encodeURIComponent(redirectUri)}&code_challenge=${codeChallenge}`,
      async exchangeCode(input) {
        exchanges.push(input);
        if (input.code === 'bad') throw new PlatformError('x', { kind: 'rejected', code: 'invalid_grant' }, 'code expired');
        return { identity: { platformUserId: 'u-1', handle: '@alice', displayName: 'Alice', avatarUrl: 'https://a' }, credentials: { access_token: 'at', refresh_token: 'rt' } };
      },
    },
  };
  return { adapter, exchanges };
}

async function setup() {
  const world = aWorld();
  const net = oauthNetwork();
  const deps = { ...world.deps, platforms: createPlatformRegistry([net.adapter, world.discord.adapter]), pkce: s256Pkce };
  const { account } = await world.operator();
  await createProfile(deps, account, { username: 'alice' });
  return { world, deps, account, net };
}

describe('OAuth connect', () => {
  it('returns the authorize URL with state and PKCE, then stores the connection from the callback', async () => {
    const { deps, account, net } = await setup();
    const started = await startOAuth(deps, account, 'x', { profileUsername: 'alice', callbackUrl: 'https://h/api/herald/oauth/x/callback', returnUrl: 'https://app.example/done' });
    const url = new URL(started.authorize_url);
    expect(url.searchParams.get('state')).toBe(started.state);
    expect(url.searchParams.get('redirect_uri')).toBe('https://h/api/herald/oauth/x/callback');
    const done = await completeOAuth(deps, 'x', { state: started.state, code: 'c-1' });
    expect(done).toMatchObject({ status: 'success', returnUrl: 'https://app.example/done' });
    // The verifier sent with the code matches the challenge in the authorize URL.
    expect(s256Pkce.challenge(net.exchanges[0].codeVerifier!)).toBe(url.searchParams.get('code_challenge'));
    expect(net.exchanges[0]).toMatchObject({ code: 'c-1', redirectUri: 'https://h/api/herald/oauth/x/callback' });
    const profile = await getProfile(deps, account, 'alice');
    expect(profile.social_accounts.x).toEqual({ username: 'u-1', handle: '@alice', display_name: 'Alice', social_images: 'https://a', reauth_required: false });
    const conn = await deps.storage.connectedAccounts.find(account.id, 'alice', 'x');
    expect(openCredentials(deps, conn!)).toEqual({ access_token: 'at', refresh_token: 'rt' });
  });

  it('accepts a state once', async () => {
    const { deps, account } = await setup();
    const started = await startOAuth(deps, account, 'x', { profileUsername: 'alice', callbackUrl: 'https://h/cb' });
    await completeOAuth(deps, 'x', { state: started.state, code: 'c-1' });
    expect(await completeOAuth(deps, 'x', { state: started.state, code: 'c-1' })).toMatchObject({ status: 'error', errorCode: 'invalid_state' });
  });

  it('reports a cancelled consent and a refused code with stable codes', async () => {
    const { deps, account } = await setup();
    const a = await startOAuth(deps, account, 'x', { profileUsername: 'alice', callbackUrl: 'https://h/cb' });
    expect(await completeOAuth(deps, 'x', { state: a.state, error: 'access_denied' })).toMatchObject({ status: 'cancelled', errorCode: 'user_cancelled' });
    const b = await startOAuth(deps, account, 'x', { profileUsername: 'alice', callbackUrl: 'https://h/cb' });
    expect(await completeOAuth(deps, 'x', { state: b.state, code: 'bad' })).toMatchObject({ status: 'error', errorCode: 'x_rejected', message: 'code expired' });
    expect(await deps.storage.connectedAccounts.find(account.id, 'alice', 'x')).toBeNull();
  });

  it('refuses reddit, networks without OAuth, unknown profiles and bad return URLs', async () => {
    const { deps, account } = await setup();
    const base = { profileUsername: 'alice', callbackUrl: 'https://h/cb' };
    await expect(startOAuth(deps, account, 'reddit', base)).rejects.toMatchObject({ errorCode: 'reddit_unavailable' });
    await expect(startOAuth(deps, account, 'discord', base)).rejects.toMatchObject({ errorCode: 'platform_not_supported' });
    await expect(startOAuth(deps, account, 'x', { ...base, profileUsername: 'bob' })).rejects.toMatchObject({ errorCode: 'PROFILE_NOT_FOUND' });
    await expect(startOAuth(deps, account, 'x', { ...base, returnUrl: 'javascript:alert(1)' })).rejects.toMatchObject({ kind: 'invalid_input' });
  });
});
