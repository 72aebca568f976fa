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
  /** A network verdict that keeps failing: new posts are refused at precheck until `until`. Reconnecting clears it. */
  restriction?: AccountRestriction;
  /** The network demands a checkpoint (account_checkpoint_required): precheck answers account_reauth_required. */
  checkpointRequired?: boolean;
  /** Consecutive failed refresh attempts (the network failing, not refusing); a successful refresh or a reconnect clears it. */
  refreshFailures?: number;
  /** Consecutive calls the network refused with freshly renewed credentials; a reconnect clears it. */
  authStrikes?: number;
  /** Why the account became reauth_required (core/domain/connection-lifecycle.ts), and since when. */
  reauthReason?: string;
  reauthSince?: Date;
}

export interface AccountRestriction {
  reason: string;
  until: Date;
  /** The result's error_code when it differs from the reason. */
  code?: string;
}

/** Why a connection cannot publish right now, checked before anything is sent; null when it can. */
export function precheckFailure(account: ConnectedAccount, now: Date): Record<string, unknown> | null {
  if (account.status === 'reauth_required') {
    return {
      error_code: 'reauth_required', failure_stage: 'precheck', reauth_required: true,
      error: `The ${account.platform} account's authorization expired: reconnect it before it can publish.`,
    };
  }
  if (account.checkpointRequired) {
    return {
      error_code: 'account_reauth_required', failure_stage: 'precheck',
      error: ['instagram', 'threads'].includes(account.platform)
        ? `The ${account.platform} account must clear a checkpoint on ${account.platform} before it can publish; Herald checks daily and lifts this once it is gone (reconnecting lifts it at once).`
        : `The ${account.platform} account needs a checkpoint cleared on ${account.platform} and then reconnecting before it can publish.`,
    };
  }
  if (account.restriction && account.restriction.until > now) {
    const seconds = Math.ceil((account.restriction.until.getTime() - now.getTime()) / 1000);
    return {
      error_code: 'account_restricted', failure_stage: 'precheck',
      restriction_reason: account.restriction.reason,
      restricted_until: account.restriction.until.toISOString(),
      retry_after_seconds: seconds,
      error: `The ${account.platform} account is paused by ${account.platform} (${account.restriction.reason}) until ${account.restriction.until.toISOString()}.`,
    };
  }
  return null;
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
