import type { Platform } from './platforms';

export type ConnectionStatus = 'connected' | 'disconnected' | 'reauth_required';

/**
 * A network account linked to a profile: at most one per platform per profile.
 * `credentials` is sealed (encrypted at rest) by the SecretBox port; the core never stores it plain.
 */
export interface ConnectedAccount {
  id: string;
  accountId: string;
  profileUsername: string;
  platform: Platform;
  /** The network's stable opaque id of the account. */
  platformUserId: string;
  handle: string;
  displayName: string;
  avatarUrl: string;
  status: ConnectionStatus;
  capabilities?: string[];
  sealedCredentials: string;
  connectedAt: Date;
  updatedAt: Date;
}

/** The spec's social-account object, as profiles show it. */
export interface SocialAccountView {
  username: string;
  handle: string;
  display_name: string;
  social_images: string;
  reauth_required: boolean;
  capabilities?: string[];
}

export function toSocialAccountView(account: ConnectedAccount): SocialAccountView {
  return {
    username: account.platformUserId,
    handle: account.handle,
    display_name: account.displayName,
    social_images: account.avatarUrl,
    reauth_required: account.status === 'reauth_required',
    ...(account.capabilities ? { capabilities: account.capabilities } : {}),
  };
}
