/** The PDS's XRPC methods: sessions, service auth, profiles, handles, blobs and records. */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import type { createBlueskyAuth } from './auth';
import type { BlueskyFailureMode } from './failures';
import type { createBlueskyLexicon } from './lexicon';
import { MAX_BLOB_BYTES, POST, POSTGATE, THREADGATE, type BlueskyAccountFixture, type BlueskyState } from './state';
import { cidOf, invalidRequest, isObj, jsonBody, need, param, sniffMime, TID, XrpcError } from './xrpc';

export function createBlueskyPds(
  s: BlueskyState, auth: ReturnType<typeof createBlueskyAuth>, lexicon: ReturnType<typeof createBlueskyLexicon>,
  /** followersCount and followsCount of a profile (analytics.ts). */
  profileCounts?: (did: string) => { followersCount: number; followsCount: number },
) {
  const { seeded, tokens, records, blobs, nextTid } = s;
  const { sign, issueSession, authenticate, findAccount, didDoc } = auth;
  const { checkRecord } = lexicon;

  function sessionView(a: BlueskyAccountFixture) {
    return { handle: a.handle, did: a.did, didDoc: didDoc(a), email: a.email, emailConfirmed: a.emailConfirmed, emailAuthFactor: false, active: true };
  }

  function pds(nsid: string, req: SimRequest, res: ServerResponse, verdict: BlueskyFailureMode | undefined): void {
    switch (nsid) {
      case 'com.atproto.server.createSession': {
        const input = jsonBody(req);
        const identifier = need(input, 'identifier');
        const password = need(input, 'password');
        const account = findAccount(identifier);
        if (!account || !account.appPasswords.includes(password)) throw new XrpcError(401, 'AuthenticationRequired', 'Invalid identifier or password');
        if (verdict === 'account_takedown') throw new XrpcError(401, 'AccountTakedown', 'Account has been taken down');
        return sendJson(res, 200, { ...issueSession(account.did), ...sessionView(account) });
      }
      case 'com.atproto.server.refreshSession': {
        const { account, jti } = authenticate(req, 'refresh');
        if (verdict === 'account_takedown') throw new XrpcError(400, 'AccountTakedown', 'Account has been taken down');
        // Rotation: the used refresh token stops working at once (a real PDS allows a short grace period).
        tokens.get(jti)!.revoked = true;
        return sendJson(res, 200, { ...issueSession(account.did), handle: account.handle, did: account.did, didDoc: didDoc(account), active: true });
      }
      case 'com.atproto.server.getSession':
        return sendJson(res, 200, sessionView(authenticate(req, 'access').account));
      case 'com.atproto.server.getServiceAuth': {
        const { account } = authenticate(req, 'access');
        const aud = param(req, 'aud');
        if (!aud.startsWith('did:')) throw invalidRequest('Error: aud must be a valid did');
        const now = Math.floor(Date.now() / 1000);
        const exp = req.query.exp === undefined ? now + 60 : Number(req.query.exp);
        if (!Number.isInteger(exp)) throw invalidRequest('Error: exp must be an integer');
        if (exp <= now) throw new XrpcError(400, 'BadExpiration', 'expiration is in past');
        if (exp - now > 3600) throw new XrpcError(400, 'BadExpiration', 'cannot request a token with an expiration more than an hour in the future');
        const lxm = req.query.lxm;
        const jti = seeded('service-jti').toString('hex').slice(0, 32);
        return sendJson(res, 200, { token: sign({ iss: account.did, aud, exp, iat: now, jti, ...(lxm ? { lxm } : {}) }, 'JWT') });
      }
      case 'app.bsky.actor.getProfile': {
        authenticate(req, 'access');
        const a = findAccount(param(req, 'actor'));
        if (!a) throw invalidRequest('Profile not found');
        const postsCount = [...records.values()].filter((r) => r.did === a.did && r.collection === POST).length;
        return sendJson(res, 200, {
          did: a.did, handle: a.handle, displayName: a.displayName, ...(a.avatar ? { avatar: a.avatar } : {}),
          description: '', ...(profileCounts?.(a.did) ?? { followersCount: 0, followsCount: 0 }), postsCount, labels: [], createdAt: '2024-01-01T00:00:00.000Z', indexedAt: new Date().toISOString(),
        });
      }
      case 'com.atproto.identity.resolveHandle': {
        const a = findAccount(param(req, 'handle'));
        if (!a || a.did === param(req, 'handle')) throw invalidRequest('Unable to resolve handle');
        return sendJson(res, 200, { did: a.did });
      }
      case 'com.atproto.repo.uploadBlob': {
        const { account } = authenticate(req, 'access');
        if (req.body.kind !== 'binary' || !req.body.data.length) throw invalidRequest('Request encoding (Content-Type) required but not provided');
        const { data, contentType } = req.body;
        if (data.length > MAX_BLOB_BYTES) throw new XrpcError(413, 'PayloadTooLarge', 'request entity too large');
        const blob = { did: account.did, cid: cidOf(0x55, data), mimeType: sniffMime(data, contentType), size: data.length };
        blobs.set(`${account.did} ${blob.cid}`, blob);
        return sendJson(res, 200, { blob: { $type: 'blob', ref: { $link: blob.cid }, mimeType: blob.mimeType, size: blob.size } });
      }
      case 'com.atproto.repo.createRecord': {
        const { account } = authenticate(req, 'access');
        const input = jsonBody(req);
        const repo = need(input, 'repo');
        if (repo !== account.did && repo !== account.handle) throw invalidRequest(`Invalid repo: ${repo} is not the authenticated account`);
        const collection = need(input, 'collection');
        if (![POST, THREADGATE, POSTGATE].includes(collection)) throw invalidRequest(`Lexicon not found: ${collection}`);
        const record = input.record;
        if (!isObj(record)) throw invalidRequest('Input must have the property "record"');
        if (record.$type !== undefined && record.$type !== collection) throw invalidRequest(`Invalid $type: expected ${collection}, got ${String(record.$type)}`);
        const rkey = input.rkey === undefined ? nextTid() : String(input.rkey);
        if (!TID.test(rkey)) throw invalidRequest(`Invalid record key: ${collection} keys are TIDs`);
        const uri = `at://${account.did}/${collection}/${rkey}`;
        if (records.has(uri)) throw invalidRequest(`Record already exists at ${uri}`);
        if (verdict === 'blob_too_large') throw new XrpcError(400, 'BlobTooLarge', 'This file is too large. It is 1.20MB but the maximum size is 1.00MB.');
        if (verdict === 'invalid_request') throw invalidRequest(`Invalid ${collection} record: rejected by the simulator's invalid_request switch`);
        const value = { ...record, $type: collection };
        checkRecord(account.did, collection, rkey, value);
        const cid = cidOf(0x71, JSON.stringify(value));
        records.set(uri, { uri, cid, did: account.did, collection, rkey, value, indexedAt: new Date().toISOString() });
        return sendJson(res, 200, { uri, cid, commit: { cid: cidOf(0x71, `commit:${uri}:${cid}`), rev: nextTid() }, validationStatus: 'valid' });
      }
      case 'com.atproto.repo.getRecord': {
        const repo = findAccount(param(req, 'repo'));
        const collection = param(req, 'collection');
        const rkey = param(req, 'rkey');
        const record = repo ? records.get(`at://${repo.did}/${collection}/${rkey}`) : undefined;
        if (!record) throw new XrpcError(400, 'RecordNotFound', `Could not locate record: at://${req.query.repo}/${collection}/${rkey}`);
        return sendJson(res, 200, { uri: record.uri, cid: record.cid, value: record.value });
      }
      default:
        throw new XrpcError(501, 'MethodNotImplemented', `Method Not Implemented: ${nsid}`);
    }
  }

  return { pds };
}
