/** The LinkedIn simulator's fixtures and server state, shared by its route modules. */
import { randomBytes } from 'node:crypto';
import { createSeededSource } from '../kit/http';
import type { LinkedInFailureMode } from './failures';

export const ACCESS_TTL_S = 60 * 86400;
export const REFRESH_TTL_S = 365 * 86400;
export const CODE_TTL_MS = 30 * 60_000;
/** LinkedIn hands out 4 MiB parts. */
export const DEFAULT_PART_BYTES = 4 * 1024 * 1024;
export const VIDEO_MAX_BYTES = 500 * 1024 * 1024;
export const THUMBNAIL_MAX_BYTES = 10 * 1024 * 1024;
export const COMMENTARY_MAX = 3000;
export const MEDIA_TITLE_MAX = 400;
export const ALT_TEXT_MAX = 4086;
export const COMMENT_MAX = 1250;
export const VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'];
export const POLL_DURATIONS = ['ONE_DAY', 'THREE_DAYS', 'SEVEN_DAYS', 'FOURTEEN_DAYS'];
export const POSTING_ROLES = ['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER'];

export interface LinkedInSimulatorOptions {
  port?: number;
  /** Fixture ids (members, pages, clients) derive from it. Default random. */
  seed?: string;
  /** How long a finalized video stays PROCESSING. Default 50 ms. */
  processingMs?: number;
  /** Size of the video parts handed out by initializeUpload. Default 4 MiB like LinkedIn. */
  uploadPartBytes?: number;
}

export interface LinkedInClientFixture {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  scopes: string[];
  /** Programmatic refresh tokens (LinkedIn grants them to approved partners only). */
  refreshTokens: boolean;
}

export interface LinkedInPageFixture { id: string; name: string; role: string }

export interface LinkedInAccountFixture {
  /** OpenID `sub`; the member URN is urn:li:person:<sub>. */
  sub: string;
  urn: string;
  name: string;
  givenName: string;
  familyName: string;
  picture: string | null;
  email: string;
  pages: LinkedInPageFixture[];
}

export interface LinkedInSimPost {
  id: string;
  author: string;
  /** As sent (little text). */
  commentary: string;
  /** What LinkedIn shows: escapes resolved, cut at the first unescaped reserved character. */
  text: string;
  truncated: boolean;
  visibility: string;
  distribution: unknown;
  content?: Record<string, unknown>;
  lifecycleState: string;
  isReshareDisabledByAuthor: boolean;
  createdAt: number;
  /** Post operations (posts.ts): the last partial update, and the post a reshare shares. */
  lastModifiedAt?: number;
  reshareOf?: string;
}

export interface LinkedInSimComment {
  id: string; urn: string; postUrn: string; actor: string; text: string; createdAt: number;
  /** The comment this one answers (a nested comment), by URN. */
  parentComment?: string;
}

export interface LinkedInSimImage { urn: string; owner: string; status: string; size?: number; contentType?: string }

export interface LinkedInSimVideo {
  urn: string;
  owner: string;
  fileSizeBytes: number;
  status: string;
  parts: Array<{ firstByte: number; lastByte: number; etag?: string }>;
  uploadToken: string;
  thumbnail?: { size: number; contentType: string };
  processingFailureReason?: string;
}

export interface TokenRecord { sub: string; clientId: string; scope: string[]; expiresAt: number; revoked: boolean }
export interface UploadSlot { kind: 'image' | 'part' | 'thumbnail' | 'document'; urn: string; part?: number; sig: string }
export interface VideoRecord extends LinkedInSimVideo { head?: Buffer; readyAt?: number; failProcessing: boolean; thumbnailUrl?: string }
export type ImageRecord = LinkedInSimImage;
/** A document of the Documents API (documents.ts). */
export interface DocumentRecord { urn: string; owner: string; status: string; size?: number; contentType?: string; readyAt?: number; failProcessing?: boolean }

export interface LinkedInState {
  seeded: (kind: string) => Buffer;
  processingMs: number;
  partBytes: number;
  clients: Map<string, LinkedInClientFixture>;
  accounts: Map<string, LinkedInAccountFixture>;
  uploads: Map<string, UploadSlot>;
  images: Map<string, ImageRecord>;
  videos: Map<string, VideoRecord>;
  /** Documents API (documents.ts). */
  documents: Map<string, DocumentRecord>;
  posts: LinkedInSimPost[];
  comments: LinkedInSimComment[];
  /** Failures taken off the host's queue, waiting for a request they apply to. */
  armed: LinkedInFailureMode[];
  /** Set once the server listens (upload and media URLs point at it). */
  origin: string;
  secret(bytes?: number): string;
  /** A LinkedIn-style numeric id (time-ordered). */
  liveId(): string;
  mediaId(prefix: string): string;
}

export function createLinkedInState(opts: LinkedInSimulatorOptions): LinkedInState {
  let sequence = 0;
  return {
    seeded: createSeededSource(opts.seed),
    processingMs: opts.processingMs ?? 50,
    partBytes: opts.uploadPartBytes ?? DEFAULT_PART_BYTES,
    clients: new Map(),
    accounts: new Map(),
    uploads: new Map(),
    images: new Map(),
    videos: new Map(),
    documents: new Map(),
    posts: [],
    comments: [],
    armed: [],
    origin: '',
    secret: (bytes = 32) => randomBytes(bytes).toString('base64url'),
    liveId: () => ((BigInt(Date.now()) << 22n) | BigInt(sequence++ & 0x3fffff)).toString(),
    mediaId: (prefix) => `${prefix}${randomBytes(12).toString('base64url')}`,
  };
}
