import type { MediaKind, Platform } from '../domain/platforms';

/**
 * The platform port, split by capability. A network adapter exports a descriptor and
 * implements the capabilities it has; the core asks for a capability, never for a god object.
 */
export interface PlatformDescriptor {
  id: Platform;
  displayName: string;
  /** How an account is connected. */
  connect: 'oauth' | 'credentials';
  /** Upload endpoints this network accepts. */
  endpoints: readonly MediaKind[];
  /** Text length limits (characters) checked before anything is sent. */
  limits: { textMaxChars?: number };
}

/** The identity of a connected account as the network reports it. */
export interface AccountIdentity {
  /** The network's stable opaque id of the account. */
  platformUserId: string;
  handle: string;
  displayName: string;
  avatarUrl: string;
}

/** Credentials as a plain JSON object; the core seals them before storing. */
export type PlatformCredentials = Record<string, string>;

export interface VerifiedConnection {
  identity: AccountIdentity;
  credentials: PlatformCredentials;
}

/** Connect by submitted credentials (discord webhook, telegram bot). */
export interface CredentialConnector {
  /** Checks the credentials with the network; throws PlatformError or HeraldError(invalid_input). */
  verify(input: Record<string, unknown>): Promise<VerifiedConnection>;
}

export interface TextPost {
  text: string;
  settings: Record<string, unknown>;
}

export interface PublishOutcome {
  postId: string;
  url?: string;
  warnings: string[];
  /** Platform-specific result fields of the spec. */
  extra?: Record<string, unknown>;
}

export interface PublishContext {
  credentials: PlatformCredentials;
  /** Stable per target across retries; sent where the network accepts an idempotency key. */
  idempotencyKey: string;
  signal?: AbortSignal;
}

/** Publishes text posts. Throws PlatformError for every network refusal. */
export interface TextPublisher {
  publishText(ctx: PublishContext, post: TextPost): Promise<PublishOutcome>;
}

/** What the core gets for one network. */
export interface PlatformAdapter {
  descriptor: PlatformDescriptor;
  credentialConnector?: CredentialConnector;
  textPublisher?: TextPublisher;
}

export interface PlatformRegistry {
  get(platform: Platform): PlatformAdapter | undefined;
  list(): PlatformAdapter[];
}
