/** The Bluesky simulator's fixtures and server state, shared by its method modules. */
import { createSeededSource } from '../kit/http';
import type { BlueskyFailureMode } from './failures';
import { S32 } from './xrpc';

export const ACCESS_LIFETIME_MS = 2 * 60 * 60_000;
export const REFRESH_LIFETIME_MS = 60 * 24 * 60 * 60_000;
export const DAILY_VIDEOS = 25;
export const DAILY_VIDEO_BYTES = 10_000_000_000;
export const MAX_BLOB_BYTES = 100_000_000;
export const MAX_VIDEO_BYTES = 300_000_000;
export const IMAGE_MAX_BYTES = 1_000_000;
export const VIDEO_BLOB_MAX_BYTES = 100_000_000;

export const POST = 'app.bsky.feed.post';
export const THREADGATE = 'app.bsky.feed.threadgate';
export const POSTGATE = 'app.bsky.feed.postgate';

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

export interface TokenRecord { did: string; scope: 'access' | 'refresh'; expiresAt: number; revoked: boolean }
export interface Job extends BlueskyVideoJob { createdAt: number; hash: string; fails: boolean }

export interface BlueskyState {
  seeded: (kind: string) => Buffer;
  processingMs: number;
  /** Signs the simulator's JWTs (HS256). */
  secret: Buffer;
  accounts: Map<string, BlueskyAccountFixture>;
  tokens: Map<string, TokenRecord>;
  records: Map<string, BlueskyRecord>;
  blobs: Map<string, BlueskyBlob>;
  jobs: Map<string, Job>;
  usage: Map<string, { videos: number; bytes: number }>;
  /** Verdicts taken off the host's queue, waiting for the method they concern. */
  deferred: BlueskyFailureMode[];
  /** Set once the server listens (DID documents and service DIDs name it). */
  origin: string;
  /** The PDS's own DID. */
  pdsDid(): string;
  /** A record key: a TID, strictly increasing. */
  nextTid(): string;
}

export function createBlueskyState(opts: BlueskySimulatorOptions): BlueskyState {
  const seeded = createSeededSource(opts.seed);
  const clockId = seeded('tid-clock').readUInt16BE(0) & 0x3ff;
  let lastMicros = 0;
  const state: BlueskyState = {
    seeded,
    processingMs: opts.processingMs ?? 50,
    secret: seeded('jwt-secret'),
    accounts: new Map(),
    tokens: new Map(),
    records: new Map(),
    blobs: new Map(),
    jobs: new Map(),
    usage: new Map(),
    deferred: [],
    origin: '',
    pdsDid: () => `did:web:${encodeURIComponent(new URL(state.origin).host)}`,
    nextTid(): string {
      lastMicros = Math.max(lastMicros + 1, Date.now() * 1000);
      let v = (BigInt(lastMicros) << 10n) | BigInt(clockId);
      let s = '';
      for (let i = 0; i < 13; i += 1) {
        s = S32[Number(v & 31n)] + s;
        v >>= 5n;
      }
      return s;
    },
  };
  return state;
}
