import type { MediaKind, Platform } from '../domain/platforms';
import type { MediaRef } from '../domain/media';
import type { SettingsSchema } from '../domain/settings';

/**
 * The platform port, split by capability. A network adapter (one file per network under
 * adapters/platforms/) exports a descriptor and implements the capabilities it has; the core asks
 * for a capability, never for a god object.
 */
export interface PlatformDescriptor {
  id: Platform;
  displayName: string;
  /** How an account is connected: OAuth 2, or credentials submitted to Herald (webhook, bot token, app password). */
  connect: 'oauth' | 'credentials';
  /** Upload endpoints this network accepts. */
  endpoints: readonly MediaKind[];
  /** Limits checked before anything is sent (spec "Media limits by platform"). */
  limits: PlatformLimits;
  /** The per-platform fields this network accepts on each endpoint. */
  settings: SettingsSchema;
}

export interface PlatformLimits {
  /** Characters (Unicode code points unless the adapter says otherwise) of the post text or caption. */
  textMaxChars?: number;
  video?: {
    maxBytes?: number;
    minSeconds?: number;
    maxSeconds?: number;
    /** ffprobe container names accepted, e.g. ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm']. */
    containers?: readonly string[];
    minShortSidePx?: number;
    minFps?: number;
    maxFps?: number;
  };
  photo?: {
    maxBytes?: number;
    maxCount?: number;
    contentTypes?: readonly string[];
    /** Width / height bounds (e.g. Instagram 0.8 to 1.91). */
    minAspectRatio?: number;
    maxAspectRatio?: number;
  };
}

/** The identity of a connected account as the network reports it. */
export interface AccountIdentity {
  /** The network's stable opaque id of the account (the social-account `username`). */
  platformUserId: string;
  handle: string;
  displayName: string;
  avatarUrl: string;
  /** Open list of what the connection may do (TikTok). */
  capabilities?: string[];
}

/**
 * Credentials as a flat JSON object of strings; the core seals them before storing. Tokens that
 * expire carry `expires_at` (ISO-8601): the core refreshes before that and once on auth_expired.
 */
export type PlatformCredentials = Record<string, string>;

export interface VerifiedConnection {
  identity: AccountIdentity;
  credentials: PlatformCredentials;
}

/** Connect by submitted credentials (discord webhook, telegram bot, bluesky app password). */
export interface CredentialConnector {
  /** Checks the credentials with the network; throws PlatformError or HeraldError(invalid_input). */
  verify(input: Record<string, unknown>): Promise<VerifiedConnection>;
}

/** Connect by OAuth 2 authorization code (with PKCE where the network requires it). */
export interface OAuthConnector {
  pkce: boolean;
  /** The network's authorize page for this client, scopes included. */
  authorizeUrl(input: { state: string; redirectUri: string; codeChallenge?: string }): string;
  /** Code → tokens → identity. */
  exchangeCode(input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<VerifiedConnection>;
}

/** Renews expiring credentials (OAuth refresh, Bluesky refreshSession). */
export interface TokenRefresher {
  /**
   * Returns the new credentials (store them: many networks rotate the refresh token). Throws
   * PlatformError auth_expired when the network refuses: the account then needs reconnecting.
   */
  refresh(credentials: PlatformCredentials): Promise<PlatformCredentials>;
}

export type { MediaRef };

/** How adapters reach the bytes: streamed for push uploads, or a public URL for pull-based networks. */
export interface MediaAccess {
  /** The bytes, or a byte range (inclusive start, exclusive end) for chunked uploads. */
  read(id: string, range?: { start: number; end: number }): AsyncIterable<Uint8Array>;
  /** A signed, expiring URL the network can fetch (Instagram, Threads, Pinterest, TikTok PULL_FROM_URL). */
  publicUrl(id: string): string;
}

export interface PublishPost {
  kind: MediaKind;
  /** The text of the post: `title` or its `<platform>_title` override (or a caption field of the network). */
  title: string;
  /** `description` where the network uses it (LinkedIn commentary, YouTube description, …). */
  description?: string;
  media: MediaRef[];
  /** Values of the network's settings schema: canonical names, types converted, defaults applied. */
  settings: Record<string, unknown>;
}

export interface PublishContext {
  credentials: PlatformCredentials;
  /** Stable per target across retries; sent where the network accepts an idempotency key. */
  idempotencyKey: string;
  media: MediaAccess;
  signal?: AbortSignal;
}

export interface PublishOutcome {
  postId: string;
  url?: string;
  warnings: string[];
  /** Platform-specific result fields of the spec (fallback_to_inbox, thumbnail_error, playlists, …). */
  extra?: Record<string, unknown>;
}

/**
 * A publish is a sequence of steps. `wait` asks the caller to come back after `afterMs` (the
 * workflow waits with a durable timer) and call `resume` with `state`: platform-side processing
 * (TikTok status, Instagram containers, YouTube processing) is polled that way, never by sleeping
 * inside a call. `state` is plain JSON and must hold everything `resume` needs.
 */
export type PublishStep =
  | { kind: 'done'; outcome: PublishOutcome }
  | { kind: 'wait'; afterMs: number; state: Record<string, unknown> };

/** Publishes posts. Throws PlatformError for every network refusal. */
export interface Publisher {
  /**
   * Optional read-only checks with the network when the post is accepted (TikTok: the account's
   * privacy levels). Throws PlatformError invalid_content for what the caller must fix; the API
   * answers 400 with that code and nothing is published. Other failures are left to the publish.
   */
  precheck?(ctx: PublishContext, post: PublishPost): Promise<void>;
  publish(ctx: PublishContext, post: PublishPost): Promise<PublishStep>;
  resume?(ctx: PublishContext, post: PublishPost, state: Record<string, unknown>): Promise<PublishStep>;
}

/** Posts the first comment under a published post (a reply on x and threads, top-level on youtube). */
export interface FirstCommenter {
  postFirstComment(ctx: PublishContext, input: { post: PublishOutcome; text: string }): Promise<{ commentId: string; warnings?: string[] }>;
}

/** What a checkpoint probe needs: the account's credentials, no media and no idempotency key. */
export type CheckpointProbeContext = Pick<PublishContext, 'credentials' | 'signal'>;

/**
 * Asks the network whether an account it checkpointed works again (Instagram, Threads), with a
 * cheap read as that account. Resolves when it does; throws the adapter's PlatformError otherwise:
 * kind `checkpoint` while the network still demands it.
 */
export interface CheckpointProbe {
  probe(ctx: CheckpointProbeContext): Promise<void>;
}

/** What the core gets for one network. */
export interface PlatformAdapter {
  descriptor: PlatformDescriptor;
  credentialConnector?: CredentialConnector;
  oauthConnector?: OAuthConnector;
  tokenRefresher?: TokenRefresher;
  publisher?: Publisher;
  firstCommenter?: FirstCommenter;
  checkpointProbe?: CheckpointProbe;
}

export interface PlatformRegistry {
  get(platform: Platform): PlatformAdapter | undefined;
  list(): PlatformAdapter[];
}
