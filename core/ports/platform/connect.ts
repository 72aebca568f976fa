import type { PlatformCredentials } from './context';

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
