/** A Bluesky session as stored in the credentials: who, where (the PDS) and with which access JWT. */
import { PlatformError } from '../../../core/domain/errors';
import type { PlatformCredentials } from '../../../core/ports/platform';
import { isObject, str } from '../kit/http';

export interface Session { did: string; handle: string; accessJwt: string; service: string }
/** A record's strong reference. */
export interface StrongRef { uri: string; cid: string }

export function sessionOf(credentials: PlatformCredentials): Session {
  const { did, handle, access_jwt: accessJwt, service } = credentials;
  if (!did || !accessJwt || !service) {
    throw new PlatformError('bluesky', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Bluesky session is incomplete; reconnect the account.');
  }
  return { did, handle: handle || did, accessJwt, service };
}

/** The `exp` of a JWT in epoch milliseconds, read without verifying it (the PDS verifies); undefined when unreadable. */
export function jwtExpiry(token: string): number | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return isObject(payload) && typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The PDS from a DID document (`#atproto_pds`), where the account's repo and sessions live. */
export function pdsEndpoint(didDoc: unknown): string | undefined {
  if (!isObject(didDoc) || !Array.isArray(didDoc.service)) return undefined;
  const entry = didDoc.service.find((s) => isObject(s) && (s.id === '#atproto_pds' || (typeof s.id === 'string' && s.id.endsWith('#atproto_pds'))));
  return isObject(entry) ? str(entry.serviceEndpoint) : undefined;
}

export const rkeyOf = (uri: string): string => uri.slice(uri.lastIndexOf('/') + 1);
