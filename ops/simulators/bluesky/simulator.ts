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
import { clockControl, createAnalyticsModel } from '../kit/metrics';
import { createBlueskyAnalytics, type BlueskyAnalytics } from './analytics';
import { sendJson, startSimulatorHost, type RecordedRequest } from '../kit/http';
import { createBlueskyAuth } from './auth';
import { BLUESKY_FAILURE_MODES, BLUESKY_SIM_VIDEO_SERVICE_DID, createBlueskyFailures, type BlueskyFailureMode } from './failures';
import { createBlueskyLexicon } from './lexicon';
import { createBlueskyPds } from './pds';
import {
  createBlueskyState, MAX_VIDEO_BYTES, POST, type BlueskyAccountFixture, type BlueskyBlob, type BlueskyRecord, type BlueskySimulatorOptions,
  type BlueskyVideoJob, type TokenRecord,
} from './state';
import { createBlueskyVideo } from './video';
import { base32, invalidRequest, XrpcError } from './xrpc';

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
  /** The counts model (tests compare an adapter's numbers with these). */
  readonly analytics: BlueskyAnalytics;
  state(): Record<string, unknown>;
  /** Clears records, blobs, video jobs and usage, queued failures, latency and recorded requests; accounts and sessions stay. */
  reset(): void;
  close(): Promise<void>;
}

export async function startBlueskySimulator(opts: BlueskySimulatorOptions = {}): Promise<BlueskySimulator> {
  const s = createBlueskyState(opts);
  const { seeded, accounts, tokens, records, blobs, jobs, usage, deferred } = s;
  const auth = createBlueskyAuth(s);
  const { findAccount } = auth;
  const analytics = createBlueskyAnalytics({
    model: createAnalyticsModel(opts.seed), records: () => records.values(), authenticate: (req) => auth.authenticate(req, 'access'), findAccount,
  });
  const { pds } = createBlueskyPds(s, auth, createBlueskyLexicon(s), (did) => analytics.profileCounts(did));
  const { video } = createBlueskyVideo(s, auth);
  const { pickVerdict, generic } = createBlueskyFailures(s);

  const METHODS: Record<string, 'GET' | 'POST'> = {
    'com.atproto.server.createSession': 'POST', 'com.atproto.server.refreshSession': 'POST', 'com.atproto.server.getSession': 'GET',
    'com.atproto.server.getServiceAuth': 'GET', 'app.bsky.actor.getProfile': 'GET', 'com.atproto.identity.resolveHandle': 'GET',
    'com.atproto.repo.uploadBlob': 'POST', 'com.atproto.repo.createRecord': 'POST', 'com.atproto.repo.getRecord': 'GET',
    'app.bsky.video.getUploadLimits': 'GET', 'app.bsky.video.uploadVideo': 'POST', 'app.bsky.video.getJobStatus': 'GET',
    ...analytics.methods,
  };

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
    controls: { analytics_clock: clockControl(analytics.model) },
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
        const read = analytics.handlers[nsid];
        if (read) return read(req, res);
        return (onVideo ? video : pds)(nsid, req, res, verdict);
      } catch (err) {
        if (!(err instanceof XrpcError)) throw err;
        return sendJson(res, err.status, err.body ?? { error: err.error, message: err.message }, err.headers);
      }
    },
  });
  s.origin = host.origin;
  const { origin } = s;

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
    analytics,
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
