/**
 * Loopback simulator of a Bluesky PDS and of the Bluesky video service, in XRPC's wire format
 * (`/xrpc/<nsid>`, errors `{error, message}`, `ratelimit-*` headers). The PDS lives at the origin,
 * the video service under `/video` (a second host in production: video.bsky.app).
 *
 * PDS: createSession (app passwords), refreshSession (rotating refresh JWTs), getSession,
 * getServiceAuth, app.bsky.actor.getProfile, identity.resolveHandle, repo.uploadBlob,
 * repo.createRecord (validating app.bsky.feed.post / threadgate / postgate records the way the
 * lexicons do), repo.getRecord. Video service: uploadVideo, getJobStatus (jobs finish after
 * `processingMs` and store the processed blob in the account's repo), getUploadLimits.
 * Records get sha256 CIDv1 (dag-cbor, `bafyrei…`) over their JSON, blobs raw CIDv1 (`bafkrei…`),
 * and rkeys are TIDs.
 */
import type { ServerResponse } from 'node:http';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createSeededSource, sendJson, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';

/**
 * Failure switches. The first six answer whatever request comes next. The others are the network's
 * own verdicts and wait for the call they concern (named in BLUESKY_FAILURE_TARGETS): a request to
 * another method that takes one from the queue puts it aside and runs normally.
 */
export const BLUESKY_FAILURE_MODES = [
  'expired_token', 'invalid_token', 'auth_required', 'rate_limited', 'server_error', 'upstream_failure',
  'blob_too_large', 'invalid_request', 'account_takedown', 'unconfirmed_email', 'video_daily_limit', 'video_processing_failed',
] as const;
export type BlueskyFailureMode = (typeof BLUESKY_FAILURE_MODES)[number];

export const BLUESKY_FAILURE_TARGETS: Partial<Record<BlueskyFailureMode, readonly string[]>> = {
  blob_too_large: ['com.atproto.repo.createRecord'],
  invalid_request: ['com.atproto.repo.createRecord'],
  account_takedown: ['com.atproto.server.createSession', 'com.atproto.server.refreshSession'],
  unconfirmed_email: ['app.bsky.video.uploadVideo'],
  video_daily_limit: ['app.bsky.video.getUploadLimits'],
  video_processing_failed: ['app.bsky.video.uploadVideo'],
};

/** `ratelimit-reset` of a rate_limited answer: this many seconds from now. */
export const BLUESKY_SIM_RATE_LIMIT_RESET_SECONDS = 30;
export const BLUESKY_SIM_VIDEO_SERVICE_DID = 'did:web:video.bsky.app';
const ACCESS_LIFETIME_MS = 2 * 60 * 60_000;
const REFRESH_LIFETIME_MS = 60 * 24 * 60 * 60_000;
const DAILY_VIDEOS = 25;
const DAILY_VIDEO_BYTES = 10_000_000_000;
const MAX_BLOB_BYTES = 100_000_000;
const MAX_VIDEO_BYTES = 300_000_000;
const IMAGE_MAX_BYTES = 1_000_000;
const VIDEO_BLOB_MAX_BYTES = 100_000_000;

const POST = 'app.bsky.feed.post';
const THREADGATE = 'app.bsky.feed.threadgate';
const POSTGATE = 'app.bsky.feed.postgate';

export interface BlueskySimulatorOptions {
  port?: number;
  /** Dids, app passwords and the signing secret derive from it: same seed and calls, same credentials. Default random. */
  seed?: string;
  /** How long a video job takes to finish. Default 50 ms. */
  processingMs?: number;
}

export interface BlueskyAccountFixture {
  did: string;
  handle: string;
  displayName: string;
  avatar?: string;
  email: string;
  emailConfirmed: boolean;
  appPasswords: string[];
}

export interface BlueskyRecord {
  uri: string;
  cid: string;
  did: string;
  collection: string;
  rkey: string;
  value: Record<string, unknown>;
  indexedAt: string;
}

export interface BlueskyBlob { did: string; cid: string; mimeType: string; size: number }

export interface BlueskyVideoJob {
  jobId: string;
  did: string;
  name: string;
  size: number;
  state: string;
  blobCid?: string;
}

export interface BlueskySimulator {
  port: number;
  origin: string;
  /** The PDS (and entryway): the adapter's `apiBase`. */
  serviceUrl: string;
  /** The video service: the adapter's `videoBase`. */
  videoBaseUrl: string;
  /** The audience the video service expects in getUploadLimits tokens. */
  videoServiceDid: string;
  createAccount(input: { handle: string; displayName?: string; avatar?: string; email?: string; emailConfirmed?: boolean }): { did: string; handle: string; appPassword: string };
  /** Another app password for the account (Settings → App passwords). */
  addAppPassword(did: string): string;
  setEmailConfirmed(did: string, confirmed: boolean): void;
  /** Makes the server treat current access (or refresh) tokens as expired: 400 ExpiredToken. */
  expireAccessTokens(did?: string): void;
  expireRefreshTokens(did?: string): void;
  /** Revokes every session (as deleting the app password does): 401 InvalidToken. */
  revokeTokens(did?: string): void;
  accounts(): BlueskyAccountFixture[];
  /** app.bsky.feed.post records, oldest first. */
  posts(did?: string): BlueskyRecord[];
  /** Posts that are replies. */
  comments(did?: string): BlueskyRecord[];
  records(collection?: string, did?: string): BlueskyRecord[];
  blobs(did?: string): BlueskyBlob[];
  videoJobs(): BlueskyVideoJob[];
  fail(mode: BlueskyFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  /** Clears records, blobs, video jobs and usage, queued failures, latency and recorded requests; accounts and sessions stay. */
  reset(): void;
  close(): Promise<void>;
}

class XrpcError {
  constructor(readonly status: number, readonly error: string, readonly message: string, readonly headers: Record<string, string> = {}, readonly body?: unknown) {}
}
const invalidRequest = (message: string) => new XrpcError(400, 'InvalidRequest', message);

// -- encodings ------------------------------------------------------------------------------

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** CIDv1, sha2-256, multibase base32: codec 0x71 (dag-cbor) for records, 0x55 (raw) for blobs. */
function cidOf(codec: 0x71 | 0x55, data: Buffer | string): string {
  const digest = createHash('sha256').update(data).digest();
  return `b${base32(Buffer.concat([Buffer.from([0x01, codec, 0x12, 0x20]), digest]))}`;
}
const CID = /^b[a-z2-7]{58}$/;

const S32 = '234567abcdefghijklmnopqrstuvwxyz';
const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const AT_URI = /^at:\/\/([^/\s]+)\/([a-zA-Z0-9.-]+)\/([A-Za-z0-9._:~-]{1,512})$/;
const LANG = /^(?:[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{1,8})*|[ix]-[a-zA-Z0-9]{1,8}(?:-[a-zA-Z0-9]{1,8})*)$/;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemeCount = (s: string) => [...graphemes.segment(s)].length;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the PDS stores as a blob's type: sniffed from the bytes, like the PDS does, else the header. */
function sniffMime(data: Buffer, declared: string): string {
  const hex = data.subarray(0, 12).toString('hex');
  if (hex.startsWith('ffd8ff')) return 'image/jpeg';
  if (hex.startsWith('89504e47')) return 'image/png';
  if (hex.startsWith('47494638')) return 'image/gif';
  if (hex.startsWith('52494646') && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (data.subarray(4, 8).toString('latin1') === 'ftyp') return data.subarray(8, 10).toString('latin1') === 'qt' ? 'video/quicktime' : 'video/mp4';
  if (hex.startsWith('1a45dfa3')) return 'video/webm';
  return declared || 'application/octet-stream';
}

const megabytes = (n: number) => `${(n / 1_000_000).toFixed(2)}MB`;

export async function startBlueskySimulator(opts: BlueskySimulatorOptions = {}): Promise<BlueskySimulator> {
  const seeded = createSeededSource(opts.seed);
  const processingMs = opts.processingMs ?? 50;
  const secret = seeded('jwt-secret');
  const clockId = seeded('tid-clock').readUInt16BE(0) & 0x3ff;

  const accounts = new Map<string, BlueskyAccountFixture>();
  interface TokenRecord { did: string; scope: 'access' | 'refresh'; expiresAt: number; revoked: boolean }
  const tokens = new Map<string, TokenRecord>();
  const records = new Map<string, BlueskyRecord>();
  const blobs = new Map<string, BlueskyBlob>();
  interface Job extends BlueskyVideoJob { createdAt: number; hash: string; fails: boolean }
  const jobs = new Map<string, Job>();
  const usage = new Map<string, { videos: number; bytes: number }>();
  const deferred: BlueskyFailureMode[] = [];
  let origin = '';
  let lastMicros = 0;
  let jobSeq = 0;
  let tokenSeq = 0;

  const pdsDid = () => `did:web:${encodeURIComponent(new URL(origin).host)}`;

  function nextTid(): string {
    lastMicros = Math.max(lastMicros + 1, Date.now() * 1000);
    let v = (BigInt(lastMicros) << 10n) | BigInt(clockId);
    let s = '';
    for (let i = 0; i < 13; i += 1) {
      s = S32[Number(v & 31n)] + s;
      v >>= 5n;
    }
    return s;
  }

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
    service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: origin }],
  });

  const usageOf = (did: string) => usage.get(did) ?? { videos: 0, bytes: 0 };

  // -- record validation, as the PDS checks records against the lexicons -------------------

  function reject(collection: string, path: string, what: string): never {
    throw invalidRequest(`Invalid ${collection} record: ${path} ${what}`);
  }

  function checkStrongRef(collection: string, path: string, v: unknown): void {
    if (!isObj(v) || typeof v.uri !== 'string' || !AT_URI.test(v.uri)) reject(collection, `${path}/uri`, 'must be a valid at-uri');
    if (typeof v.cid !== 'string' || !CID.test(v.cid)) reject(collection, `${path}/cid`, 'must be a cid string');
  }

  /** A blob reference must name a blob this repo uploaded, within the field's type and size. */
  function checkBlob(did: string, path: string, v: unknown, accept: string, maxSize: number): void {
    if (!isObj(v) || v.$type !== 'blob' || !isObj(v.ref) || typeof v.ref.$link !== 'string' || typeof v.mimeType !== 'string' || typeof v.size !== 'number') {
      reject(POST, path, 'should be a blob ref');
    }
    const blob = blobs.get(`${did} ${v.ref.$link}`);
    if (!blob) throw new XrpcError(400, 'BlobNotFound', `Could not find blob: ${v.ref.$link}`);
    if (!blob.mimeType.startsWith(accept)) throw new XrpcError(400, 'InvalidMimeType', `Wrong type of file. It is ${blob.mimeType} but it must match ${accept}*.`);
    if (blob.size > maxSize) throw new XrpcError(400, 'BlobTooLarge', `This file is too large. It is ${megabytes(blob.size)} but the maximum size is ${megabytes(maxSize)}.`);
  }

  function checkAspect(path: string, v: unknown): void {
    if (v === undefined) return;
    if (!isObj(v) || !Number.isInteger(v.width) || !Number.isInteger(v.height) || (v.width as number) < 1 || (v.height as number) < 1) {
      reject(POST, path, 'must be {width, height} positive integers');
    }
  }

  function checkMedia(did: string, path: string, embed: Record<string, unknown>): void {
    if (embed.$type === 'app.bsky.embed.images') {
      const images = embed.images;
      if (!Array.isArray(images) || images.length < 1) reject(POST, `${path}/images`, 'must be a non-empty array');
      if (images.length > 4) reject(POST, `${path}/images`, 'must not have more than 4 elements');
      images.forEach((img: unknown, i) => {
        if (!isObj(img)) reject(POST, `${path}/images/${i}`, 'must be an object');
        if (typeof img.alt !== 'string') reject(POST, `${path}/images/${i}`, 'must have the property "alt"');
        checkBlob(did, `${path}/images/${i}/image`, img.image, 'image/', IMAGE_MAX_BYTES);
        checkAspect(`${path}/images/${i}/aspectRatio`, img.aspectRatio);
      });
      return;
    }
    if (embed.$type === 'app.bsky.embed.video') {
      checkBlob(did, `${path}/video`, embed.video, 'video/mp4', VIDEO_BLOB_MAX_BYTES);
      if (embed.alt !== undefined && (typeof embed.alt !== 'string' || graphemeCount(embed.alt) > 1000)) reject(POST, `${path}/alt`, 'must be a string of at most 1000 graphemes');
      checkAspect(`${path}/aspectRatio`, embed.aspectRatio);
      return;
    }
    reject(POST, `${path}/$type`, `has an unsupported embed type ${String(embed.$type)}`);
  }

  function checkPost(did: string, r: Record<string, unknown>): void {
    if (typeof r.text !== 'string') reject(POST, 'Record', 'must have the property "text"');
    const textBytes = Buffer.byteLength(r.text, 'utf8');
    if (graphemeCount(r.text) > 300) reject(POST, 'Record/text', 'must not be longer than 300 graphemes');
    if (textBytes > 3000) reject(POST, 'Record/text', 'must not be longer than 3000 characters');
    if (typeof r.createdAt !== 'string' || !DATETIME.test(r.createdAt) || Number.isNaN(Date.parse(r.createdAt))) reject(POST, 'Record/createdAt', 'must be a valid datetime');
    if (r.langs !== undefined) {
      if (!Array.isArray(r.langs) || r.langs.length > 3) reject(POST, 'Record/langs', 'must be an array of at most 3 elements');
      r.langs.forEach((l: unknown, i) => { if (typeof l !== 'string' || !LANG.test(l)) reject(POST, `Record/langs/${i}`, 'must be a well-formed BCP-47 language tag'); });
    }
    if (r.labels !== undefined) {
      const labels = r.labels;
      if (!isObj(labels) || labels.$type !== 'com.atproto.label.defs#selfLabels' || !Array.isArray(labels.values) || labels.values.length > 10) {
        reject(POST, 'Record/labels', 'must be com.atproto.label.defs#selfLabels with at most 10 values');
      }
      labels.values.forEach((v: unknown, i) => {
        if (!isObj(v) || typeof v.val !== 'string' || !v.val || Buffer.byteLength(v.val) > 128) reject(POST, `Record/labels/values/${i}/val`, 'must be a string of at most 128 bytes');
      });
    }
    if (r.facets !== undefined) {
      if (!Array.isArray(r.facets)) reject(POST, 'Record/facets', 'must be an array');
      r.facets.forEach((f: unknown, i) => {
        const at = `Record/facets/${i}`;
        if (!isObj(f) || !isObj(f.index) || !Array.isArray(f.features) || !f.features.length) reject(POST, at, 'must have index and features');
        const [start, end] = [f.index.byteStart, f.index.byteEnd];
        if (typeof start !== 'number' || typeof end !== 'number' || !Number.isInteger(start) || !Number.isInteger(end) || start < 0 || start >= end || end > textBytes) {
          reject(POST, `${at}/index`, 'must be a byte range inside the text');
        }
        f.features.forEach((feature: unknown, j) => {
          const ft = `${at}/features/${j}`;
          if (!isObj(feature)) reject(POST, ft, 'must be an object');
          if (feature.$type === 'app.bsky.richtext.facet#link') {
            try { new URL(String(feature.uri)); } catch { reject(POST, `${ft}/uri`, 'must be a uri'); }
          } else if (feature.$type === 'app.bsky.richtext.facet#mention') {
            if (typeof feature.did !== 'string' || !feature.did.startsWith('did:')) reject(POST, `${ft}/did`, 'must be a did');
          } else if (feature.$type === 'app.bsky.richtext.facet#tag') {
            if (typeof feature.tag !== 'string' || !feature.tag || Buffer.byteLength(feature.tag) > 640) reject(POST, `${ft}/tag`, 'must be a string of at most 640 bytes');
          } else reject(POST, `${ft}/$type`, 'must be a known facet feature');
        });
      });
    }
    if (r.reply !== undefined) {
      if (!isObj(r.reply)) reject(POST, 'Record/reply', 'must be an object');
      checkStrongRef(POST, 'Record/reply/root', r.reply.root);
      checkStrongRef(POST, 'Record/reply/parent', r.reply.parent);
    }
    if (r.embed !== undefined) {
      const embed = r.embed;
      if (!isObj(embed)) reject(POST, 'Record/embed', 'must be an object');
      if (embed.$type === 'app.bsky.embed.record') {
        if (!isObj(embed.record)) reject(POST, 'Record/embed/record', 'must be a strong ref');
        checkStrongRef(POST, 'Record/embed/record', embed.record);
      } else if (embed.$type === 'app.bsky.embed.recordWithMedia') {
        if (!isObj(embed.record) || !isObj(embed.media)) reject(POST, 'Record/embed', 'must have record and media');
        checkStrongRef(POST, 'Record/embed/record/record', embed.record.record);
        checkMedia(did, 'Record/embed/media', embed.media);
      } else checkMedia(did, 'Record/embed', embed);
    }
  }

  /** Gates must sit under the rkey of a post of the same repo (the lexicons' rule; the AppView ignores others). */
  function checkGateTarget(collection: string, did: string, rkey: string, post: unknown): void {
    const m = typeof post === 'string' ? AT_URI.exec(post) : null;
    if (!m) reject(collection, 'Record/post', 'must be a valid at-uri');
    if (m[1] !== did || m[2] !== POST || m[3] !== rkey) reject(collection, 'Record/post', `must be at://${did}/${POST}/${rkey}, the post with the same rkey`);
  }

  function checkRecord(did: string, collection: string, rkey: string, r: Record<string, unknown>): void {
    if (collection === POST) return checkPost(did, r);
    if (typeof r.createdAt !== 'string' || !DATETIME.test(r.createdAt)) reject(collection, 'Record/createdAt', 'must be a valid datetime');
    checkGateTarget(collection, did, rkey, r.post);
    if (collection === THREADGATE) {
      if (r.allow === undefined) return;
      if (!Array.isArray(r.allow) || r.allow.length > 5) reject(THREADGATE, 'Record/allow', 'must be an array of at most 5 rules');
      r.allow.forEach((rule: unknown, i) => {
        const kinds = ['mentionRule', 'followerRule', 'followingRule', 'listRule'].map((k) => `${THREADGATE}#${k}`);
        if (!isObj(rule) || !kinds.includes(String(rule.$type))) reject(THREADGATE, `Record/allow/${i}`, `must be one of ${kinds.join(', ')}`);
        if (rule.$type === `${THREADGATE}#listRule` && (typeof rule.list !== 'string' || !AT_URI.test(rule.list))) {
          reject(THREADGATE, `Record/allow/${i}/list`, 'must be a valid at-uri');
        }
      });
      return;
    }
    if (r.embeddingRules !== undefined) {
      if (!Array.isArray(r.embeddingRules) || r.embeddingRules.length > 5) reject(POSTGATE, 'Record/embeddingRules', 'must be an array of at most 5 rules');
      r.embeddingRules.forEach((rule: unknown, i) => {
        if (!isObj(rule) || rule.$type !== `${POSTGATE}#disableRule`) reject(POSTGATE, `Record/embeddingRules/${i}`, `must be ${POSTGATE}#disableRule`);
      });
    }
  }

  // -- methods -----------------------------------------------------------------------------

  const jsonBody = (req: SimRequest): Record<string, unknown> => {
    if (req.body.kind === 'json' && isObj(req.body.value)) return req.body.value;
    if (req.body.kind === 'invalid') throw invalidRequest('Invalid JSON body');
    throw invalidRequest('Request encoding (Content-Type) required but not provided');
  };
  const need = (obj: Record<string, unknown>, key: string, where = 'Input'): string => {
    const v = obj[key];
    if (typeof v !== 'string' || !v) throw invalidRequest(`${where} must have the property "${key}"`);
    return v;
  };
  const param = (req: SimRequest, key: string): string => {
    const v = req.query[key];
    if (!v) throw invalidRequest(`Error: Params must have the property "${key}"`);
    return v;
  };

  function sessionView(a: BlueskyAccountFixture) {
    return { handle: a.handle, did: a.did, didDoc: didDoc(a), email: a.email, emailConfirmed: a.emailConfirmed, emailAuthFactor: false, active: true };
  }

  function jobView(job: Job) {
    const elapsed = Date.now() - job.createdAt;
    if (job.fails && elapsed >= processingMs) {
      job.state = 'JOB_STATE_FAILED';
      return {
        jobId: job.jobId, did: job.did, state: job.state,
        error: 'Video could not be encoded', failureCode: 'encoding_failure', message: 'The video could not be processed.',
      };
    }
    if (elapsed < processingMs) {
      job.state = 'JOB_STATE_ENCODING';
      return { jobId: job.jobId, did: job.did, state: job.state, progress: Math.min(99, Math.floor((elapsed / processingMs) * 100)) };
    }
    // The service stores the re-encoded MP4 (within the embed's size limit) in the user's repo, as uploadBlob would.
    const size = Math.min(job.size, VIDEO_BLOB_MAX_BYTES);
    if (!job.blobCid) {
      job.blobCid = cidOf(0x55, `processed:${job.hash}`);
      blobs.set(`${job.did} ${job.blobCid}`, { did: job.did, cid: job.blobCid, mimeType: 'video/mp4', size });
    }
    job.state = 'JOB_STATE_COMPLETED';
    return { jobId: job.jobId, did: job.did, state: job.state, progress: 100, blob: { $type: 'blob', ref: { $link: job.blobCid }, mimeType: 'video/mp4', size } };
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
          description: '', followersCount: 0, followsCount: 0, postsCount, labels: [], createdAt: '2024-01-01T00:00:00.000Z', indexedAt: new Date().toISOString(),
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

  function video(nsid: string, req: SimRequest, res: ServerResponse, verdict: BlueskyFailureMode | undefined): void {
    switch (nsid) {
      case 'app.bsky.video.getUploadLimits': {
        const account = authenticateService(req, BLUESKY_SIM_VIDEO_SERVICE_DID, 'app.bsky.video.getUploadLimits');
        const used = usageOf(account.did);
        if (!account.emailConfirmed) {
          return sendJson(res, 200, {
            canUpload: false, remainingDailyVideos: 0, remainingDailyBytes: 0, error: 'unconfirmed_email', message: 'Please confirm your email address to upload videos.',
          });
        }
        if (verdict === 'video_daily_limit') {
          return sendJson(res, 200, { canUpload: false, remainingDailyVideos: 0, remainingDailyBytes: 0, message: 'You have reached your daily limit for video uploads.' });
        }
        const remainingDailyVideos = Math.max(0, DAILY_VIDEOS - used.videos);
        const remainingDailyBytes = Math.max(0, DAILY_VIDEO_BYTES - used.bytes);
        return sendJson(res, 200, { canUpload: remainingDailyVideos > 0 && remainingDailyBytes > 0, remainingDailyVideos, remainingDailyBytes });
      }
      case 'app.bsky.video.uploadVideo': {
        const account = authenticateService(req, pdsDid(), 'com.atproto.repo.uploadBlob');
        if (param(req, 'did') !== account.did) throw invalidRequest('did does not match the service token issuer');
        const name = param(req, 'name');
        if (req.body.kind !== 'binary' || !req.body.data.length) throw invalidRequest('Request body must be the video bytes');
        if (!req.body.contentType.startsWith('video/')) throw invalidRequest(`Unsupported content type ${req.body.contentType || '(none)'}`);
        // The live service wraps this one verdict in jobStatus and answers its other job statuses bare.
        if (!account.emailConfirmed || verdict === 'unconfirmed_email') {
          return sendJson(res, 400, { jobStatus: { did: '', error: 'unconfirmed_email', jobId: '', state: '' } });
        }
        const { data } = req.body;
        const used = usageOf(account.did);
        if (used.videos >= DAILY_VIDEOS || used.bytes + data.length > DAILY_VIDEO_BYTES) {
          const reset = Math.floor(Date.now() / 1000) + 86400;
          throw new XrpcError(429, 'RateLimitExceeded', 'Daily video upload limit reached',
            { 'ratelimit-limit': String(DAILY_VIDEOS), 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset) });
        }
        const hash = createHash('sha256').update(data).digest('hex');
        const existing = [...jobs.values()].find((j) => j.did === account.did && j.hash === hash && !j.fails);
        if (existing) {
          return sendJson(res, 409, { did: account.did, jobId: existing.jobId, state: jobView(existing).state, error: 'already_exists', message: 'Video already processed' });
        }
        const jobId = `${seeded('job').toString('hex').slice(0, 16)}${(++jobSeq).toString(16).padStart(4, '0')}`;
        const job: Job = {
          jobId, did: account.did, name, size: data.length, state: 'JOB_STATE_CREATED', createdAt: Date.now(), hash, fails: verdict === 'video_processing_failed',
        };
        jobs.set(jobId, job);
        usage.set(account.did, { videos: used.videos + 1, bytes: used.bytes + data.length });
        return sendJson(res, 200, { did: account.did, jobId, state: job.state });
      }
      case 'app.bsky.video.getJobStatus': {
        const job = jobs.get(param(req, 'jobId'));
        if (!job) throw new XrpcError(404, 'NotFound', 'Job not found');
        return sendJson(res, 200, { jobStatus: jobView(job) });
      }
      default:
        throw new XrpcError(501, 'MethodNotImplemented', `Method Not Implemented: ${nsid}`);
    }
  }

  const METHODS: Record<string, 'GET' | 'POST'> = {
    'com.atproto.server.createSession': 'POST', 'com.atproto.server.refreshSession': 'POST', 'com.atproto.server.getSession': 'GET',
    'com.atproto.server.getServiceAuth': 'GET', 'app.bsky.actor.getProfile': 'GET', 'com.atproto.identity.resolveHandle': 'GET',
    'com.atproto.repo.uploadBlob': 'POST', 'com.atproto.repo.createRecord': 'POST', 'com.atproto.repo.getRecord': 'GET',
    'app.bsky.video.getUploadLimits': 'GET', 'app.bsky.video.uploadVideo': 'POST', 'app.bsky.video.getJobStatus': 'GET',
  };

  /** Generic switches answer at once; a verdict meant for another method waits for that one. */
  function pickVerdict(nsid: string, failure: BlueskyFailureMode | undefined): BlueskyFailureMode | undefined {
    if (failure && BLUESKY_FAILURE_TARGETS[failure] && !BLUESKY_FAILURE_TARGETS[failure]!.includes(nsid)) {
      deferred.push(failure);
      failure = undefined;
    }
    if (failure) return failure;
    const i = deferred.findIndex((m) => BLUESKY_FAILURE_TARGETS[m]!.includes(nsid));
    return i >= 0 ? deferred.splice(i, 1)[0] : undefined;
  }

  function generic(mode: BlueskyFailureMode): XrpcError | undefined {
    switch (mode) {
      case 'expired_token': return new XrpcError(400, 'ExpiredToken', 'Token has expired');
      case 'invalid_token': return new XrpcError(401, 'InvalidToken', 'Token has been revoked');
      case 'auth_required': return new XrpcError(401, 'AuthenticationRequired', 'Authentication Required');
      case 'rate_limited': {
        const reset = Math.floor(Date.now() / 1000) + BLUESKY_SIM_RATE_LIMIT_RESET_SECONDS;
        return new XrpcError(429, 'RateLimitExceeded', 'Rate Limit Exceeded',
          { 'ratelimit-limit': '3000', 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset), 'ratelimit-policy': '3000;w=300' });
      }
      case 'server_error': return new XrpcError(500, 'InternalServerError', 'Internal Server Error');
      case 'upstream_failure': return new XrpcError(502, 'UpstreamFailure', 'Upstream Failure');
      default: return undefined;
    }
  }

  const host = await startSimulatorHost<BlueskyFailureMode>({
    port: opts.port,
    maxBodyBytes: MAX_VIDEO_BYTES + 1_000_000,
    failureModes: BLUESKY_FAILURE_MODES,
    state: () => ({
      accounts: [...accounts.values()].map((a) => ({ did: a.did, handle: a.handle, emailConfirmed: a.emailConfirmed })),
      recordCount: records.size,
      blobCount: blobs.size,
      videoJobCount: jobs.size,
      deferredFailures: [...deferred],
    }),
    reset: () => {
      records.clear();
      blobs.clear();
      jobs.clear();
      usage.clear();
      deferred.length = 0;
    },
    handle(req, res, failure) {
      const m = /^(\/video)?\/xrpc\/([a-zA-Z0-9.-]+)$/.exec(req.path);
      try {
        if (!m) throw new XrpcError(404, 'NotFound', 'Not Found');
        const onVideo = m[1] === '/video';
        const nsid = m[2]!;
        const expected = METHODS[nsid];
        if (!expected || nsid.startsWith('app.bsky.video.') !== onVideo) throw new XrpcError(501, 'MethodNotImplemented', `Method Not Implemented: ${nsid}`);
        if (req.method !== expected) throw invalidRequest(`Incorrect HTTP method (${req.method}) expected ${expected}`);
        const verdict = pickVerdict(nsid, failure);
        const immediate = verdict ? generic(verdict) : undefined;
        if (immediate) throw immediate;
        if (req.body.kind === 'too_large') throw new XrpcError(413, 'PayloadTooLarge', 'request entity too large');
        return (onVideo ? video : pds)(nsid, req, res, verdict);
      } catch (err) {
        if (!(err instanceof XrpcError)) throw err;
        return sendJson(res, err.status, err.body ?? { error: err.error, message: err.message }, err.headers);
      }
    },
  });
  origin = host.origin;

  const forDid = <T extends { did: string }>(items: Iterable<T>, did?: string) => [...items].filter((x) => did === undefined || x.did === did);
  const setTokens = (did: string | undefined, scope: 'access' | 'refresh' | undefined, change: (t: TokenRecord) => void) => {
    for (const t of tokens.values()) if ((did === undefined || t.did === did) && (scope === undefined || t.scope === scope)) change(t);
  };
  const appPassword = () => {
    const chars = seeded('app-password');
    const alnum = 'abcdefghijklmnopqrstuvwxyz234567';
    const s = [...chars.subarray(0, 16)].map((b) => alnum[b & 31]).join('');
    return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}`;
  };

  return {
    port: host.port,
    origin,
    serviceUrl: origin,
    videoBaseUrl: `${origin}/video`,
    videoServiceDid: BLUESKY_SIM_VIDEO_SERVICE_DID,
    get requests() { return host.requests; },
    createAccount(input) {
      const handle = input.handle.toLowerCase().replace(/^@/, '');
      if (findAccount(handle)) throw new Error(`handle ${handle} is taken`);
      const did = `did:plc:${base32(seeded('did')).slice(0, 24)}`;
      const password = appPassword();
      accounts.set(did, {
        did,
        handle,
        displayName: input.displayName ?? '',
        ...(input.avatar ? { avatar: input.avatar } : {}),
        email: input.email ?? `${handle.split('.')[0]}@example.com`,
        emailConfirmed: input.emailConfirmed ?? true,
        appPasswords: [password],
      });
      return { did, handle, appPassword: password };
    },
    addAppPassword(did) {
      const account = accounts.get(did);
      if (!account) throw new Error(`unknown account ${did}`);
      const password = appPassword();
      account.appPasswords.push(password);
      return password;
    },
    setEmailConfirmed(did, confirmed) {
      const account = accounts.get(did);
      if (!account) throw new Error(`unknown account ${did}`);
      account.emailConfirmed = confirmed;
    },
    expireAccessTokens: (did) => setTokens(did, 'access', (t) => { t.expiresAt = Date.now() - 1; }),
    expireRefreshTokens: (did) => setTokens(did, 'refresh', (t) => { t.expiresAt = Date.now() - 1; }),
    revokeTokens: (did) => setTokens(did, undefined, (t) => { t.revoked = true; }),
    accounts: () => [...accounts.values()].map((a) => structuredClone(a)),
    posts: (did) => forDid(records.values(), did).filter((r) => r.collection === POST).map((r) => structuredClone(r)),
    comments: (did) => forDid(records.values(), did).filter((r) => r.collection === POST && r.value.reply !== undefined).map((r) => structuredClone(r)),
    records: (collection, did) => forDid(records.values(), did).filter((r) => collection === undefined || r.collection === collection).map((r) => structuredClone(r)),
    blobs: (did) => forDid(blobs.values(), did).map((b) => ({ ...b })),
    videoJobs: () => [...jobs.values()].map(({ jobId, did, name, size, state, blobCid }) => ({ jobId, did, name, size, state, ...(blobCid ? { blobCid } : {}) })),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
