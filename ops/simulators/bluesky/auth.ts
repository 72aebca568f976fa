/** Sessions and JWTs as the PDS and the video service check them. */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { SimRequest } from '../kit/http';
import { ACCESS_LIFETIME_MS, REFRESH_LIFETIME_MS, type BlueskyAccountFixture, type BlueskyState } from './state';
import { isObj, XrpcError } from './xrpc';

export function createBlueskyAuth(s: BlueskyState) {
  const { seeded, secret, accounts, tokens, pdsDid } = s;
  let tokenSeq = 0;

  // -- JWTs (HS256 with the simulator's secret; the PDS signs service tokens with the account key) --

  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  function sign(payload: Record<string, unknown>, typ = 'at+jwt'): string {
    const head = `${b64({ alg: 'HS256', typ })}.${b64(payload)}`;
    return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
  }
  function verifyJwt(token: string): Record<string, unknown> | undefined {
    const [h, p, s] = token.split('.');
    if (!h || !p || !s) return undefined;
    const expected = createHmac('sha256', secret).update(`${h}.${p}`).digest();
    const given = Buffer.from(s, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const payload: unknown = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
      return isObj(payload) ? payload : undefined;
    } catch {
      return undefined;
    }
  }

  function issueSession(did: string) {
    const now = Date.now();
    const accessJti = `a${++tokenSeq}.${seeded('access').toString('hex').slice(0, 16)}`;
    const refreshJti = `r${tokenSeq}.${seeded('refresh').toString('hex').slice(0, 16)}`;
    tokens.set(accessJti, { did, scope: 'access', expiresAt: now + ACCESS_LIFETIME_MS, revoked: false });
    tokens.set(refreshJti, { did, scope: 'refresh', expiresAt: now + REFRESH_LIFETIME_MS, revoked: false });
    const iat = Math.floor(now / 1000);
    return {
      accessJwt: sign({ scope: 'com.atproto.appPass', sub: did, aud: pdsDid(), iat, exp: Math.floor((now + ACCESS_LIFETIME_MS) / 1000), jti: accessJti }),
      refreshJwt: sign({ scope: 'com.atproto.refresh', sub: did, aud: pdsDid(), iat, exp: Math.floor((now + REFRESH_LIFETIME_MS) / 1000), jti: refreshJti }, 'refresh+jwt'),
    };
  }

  const bearer = (req: SimRequest): string | undefined => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];

  /** Checks a session JWT like the PDS: missing 401, unverifiable or revoked 401, expired 400, wrong kind 400. */
  function authenticate(req: SimRequest, scope: 'access' | 'refresh'): { account: BlueskyAccountFixture; jti: string } {
    const token = bearer(req);
    if (!token) throw new XrpcError(401, 'AuthenticationRequired', 'Authentication Required');
    const payload = verifyJwt(token);
    const jti = typeof payload?.jti === 'string' ? payload.jti : '';
    const record = tokens.get(jti);
    if (!payload || !record) throw new XrpcError(401, 'InvalidToken', 'Token could not be verified');
    if (record.revoked) throw new XrpcError(401, 'InvalidToken', 'Token has been revoked');
    if (record.scope !== scope) throw new XrpcError(400, 'InvalidToken', 'Bad token scope');
    if (record.expiresAt <= Date.now()) throw new XrpcError(400, 'ExpiredToken', 'Token has expired');
    const account = accounts.get(record.did);
    if (!account) throw new XrpcError(401, 'InvalidToken', 'Token could not be verified');
    return { account, jti };
  }

  /** Service-auth tokens as the video service checks them: audience, method and expiry. */
  function authenticateService(req: SimRequest, aud: string, lxm: string): BlueskyAccountFixture {
    const token = bearer(req);
    if (!token) throw new XrpcError(401, 'AuthenticationRequired', 'Authentication Required');
    const payload = verifyJwt(token);
    if (!payload || typeof payload.iss !== 'string') throw new XrpcError(401, 'InvalidToken', 'jwt signature does not match jwt issuer');
    if (typeof payload.exp !== 'number' || payload.exp * 1000 <= Date.now()) throw new XrpcError(401, 'ExpiredToken', 'jwt expired');
    if (payload.aud !== aud) throw new XrpcError(401, 'InvalidToken', `jwt audience does not match service did: expected ${aud}`);
    if (payload.lxm !== lxm) throw new XrpcError(401, 'InvalidToken', `bad jwt lexicon method ("lxm"): expected ${lxm}`);
    const account = accounts.get(payload.iss);
    if (!account) throw new XrpcError(401, 'InvalidToken', 'unknown jwt issuer');
    return account;
  }

  function findAccount(actor: string): BlueskyAccountFixture | undefined {
    const key = actor.trim().toLowerCase().replace(/^@/, '');
    return accounts.get(actor) ?? [...accounts.values()].find((a) => a.handle === key || a.email.toLowerCase() === key);
  }

  const didDoc = (a: BlueskyAccountFixture) => ({
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: a.did,
    alsoKnownAs: [`at://${a.handle}`],
    verificationMethod: [{ id: `${a.did}#atproto`, type: 'Multikey', controller: a.did, publicKeyMultibase: `zQ3sh${createHash('sha256').update(a.did).digest('hex').slice(0, 40)}` }],
    service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: s.origin }],
  });

  return { sign, issueSession, authenticate, authenticateService, findAccount, didDoc };
}
