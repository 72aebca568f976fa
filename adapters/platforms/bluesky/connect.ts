/**
 * Connecting Bluesky: a handle plus an app password, exchanged once with
 * com.atproto.server.createSession for an access and a refresh JWT (the password itself is never
 * stored); refreshSession renews both. Expiries are read from the JWTs against the injected clock.
 */
import type { CredentialConnector, PlatformCredentials, TokenRefresher, VerifiedConnection } from '../../../core/ports/platform';
import { readCredentials } from '../kit/credentials';
import { str, trimBase, type Json } from '../kit/http';
import type { BlueskyClient } from './client';
import { jwtExpiry, pdsEndpoint } from './session';
import { blueskyCredentialFields, normalizeAppPassword, normalizeIdentifier } from './settings';

/** Used when an access JWT carries no readable `exp`: bsky.social hands out 2-hour access tokens. */
const FALLBACK_ACCESS_LIFETIME_MS = 2 * 60 * 60_000;

export function createBlueskyConnect(client: BlueskyClient, opts: { apiBase: string }): { credentials: CredentialConnector; refresher: TokenRefresher } {
  const apiBase = trimBase(opts.apiBase);
  const apiOrigin = new URL(apiBase).origin;

  /** A session's PDS must be https (or the configured service's own origin, for loopback simulators). */
  function checkedService(candidate: string | undefined): string {
    if (!candidate) return apiBase;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'https:' || url.origin === apiOrigin) return trimBase(url.toString());
    } catch { /* fall through */ }
    return apiBase;
  }

  function credentialsOf(body: Json, service: string, previous: PlatformCredentials = {}): PlatformCredentials {
    const accessJwt = str(body.accessJwt);
    const refreshJwt = str(body.refreshJwt);
    const did = str(body.did);
    const handle = str(body.handle);
    if (!accessJwt || !refreshJwt || !did?.startsWith('did:') || !handle) {
      throw client.failure({ kind: 'malformed', status: 200, what: 'a session (accessJwt, refreshJwt, did, handle)' });
    }
    const expiresAt = jwtExpiry(accessJwt) ?? client.now().getTime() + FALLBACK_ACCESS_LIFETIME_MS;
    const emailConfirmed = typeof body.emailConfirmed === 'boolean' ? String(body.emailConfirmed) : previous.email_confirmed ?? 'false';
    return {
      did,
      handle,
      access_jwt: accessJwt,
      refresh_jwt: refreshJwt,
      service: checkedService(pdsEndpoint(body.didDoc) ?? service),
      expires_at: new Date(expiresAt).toISOString(),
      email_confirmed: emailConfirmed,
    };
  }

  async function verify(input: Record<string, unknown>): Promise<VerifiedConnection> {
    const values = readCredentials(blueskyCredentialFields, input);
    const identifier = normalizeIdentifier(values.identifier as string);
    const password = normalizeAppPassword(values.app_password as string);
    const { body } = await client.xrpc(apiBase, 'com.atproto.server.createSession', { method: 'POST', json: { identifier, password } });
    const credentials = credentialsOf(body, apiBase);
    const { body: profile } = await client.xrpc(credentials.service!, 'app.bsky.actor.getProfile', {
      method: 'GET', query: { actor: credentials.did! }, token: credentials.access_jwt,
    });
    const handle = str(profile.handle) ?? credentials.handle!;
    return {
      identity: {
        platformUserId: credentials.did!,
        handle,
        displayName: str(profile.displayName) ?? handle,
        avatarUrl: str(profile.avatar) ?? '',
      },
      credentials,
    };
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    const refreshJwt = credentials.refresh_jwt;
    if (!refreshJwt) throw client.failure({ kind: 'refresh_expired' });
    // A refresh JWT past its own exp is refused without asking: only a new app-password login helps.
    const expiry = jwtExpiry(refreshJwt);
    if (expiry !== undefined && expiry <= client.now().getTime()) throw client.failure({ kind: 'refresh_expired' });
    const service = checkedService(credentials.service);
    const { body } = await client.xrpc(service, 'com.atproto.server.refreshSession', { method: 'POST', token: refreshJwt });
    return credentialsOf(body, service, credentials);
  }

  return { credentials: { verify }, refresher: { refresh } };
}
