import type { MediaKind, Platform } from '../domain/platforms';

/** The spec's `upload_completed` event, one per finished platform target. */
export interface UploadCompletedEvent {
  event: 'upload_completed';
  account_id: string;
  job_id?: string;
  request_id: string;
  user_email: string;
  profile_username: string;
  platform: Platform;
  media_type: MediaKind;
  title: string;
  caption: string;
  result: { success: boolean; url: string | null; publish_id: string | null; post_id: string | null; error: string | null };
  created_at: string;
}

/** Why a connection left `connected` (the spec's examples; one place for the vocabulary). */
export type DisconnectReason = 'manual_disconnect' | 'account_blocked';
export type ReauthReason = 'token_refresh_threshold_exceeded' | 'max_auth_strikes' | 'refresh_token_expired' | 'access_revoked';

interface ConnectionEventBase {
  account_id: string;
  user_email: string;
  platform: Platform;
  account_name: string;
  profile_username?: string;
  created_at: string;
}

/** The spec's connection events: one per state transition of a connected account. */
export interface SocialAccountConnectedEvent extends ConnectionEventBase {
  event: 'social_account_connected';
  status: 'connected';
}
export interface SocialAccountDisconnectedEvent extends ConnectionEventBase {
  event: 'social_account_disconnected';
  status: 'disconnected';
  reason: DisconnectReason;
}
export interface SocialAccountReauthRequiredEvent extends ConnectionEventBase {
  event: 'social_account_reauth_required';
  status: 'reauth_required';
  reason: ReauthReason;
}
export type ConnectionEvent = SocialAccountConnectedEvent | SocialAccountDisconnectedEvent | SocialAccountReauthRequiredEvent;

export type HeraldEvent = UploadCompletedEvent | ConnectionEvent;
export type HeraldEventName = HeraldEvent['event'];
export const HERALD_EVENT_NAMES: readonly HeraldEventName[] = ['upload_completed', 'social_account_connected', 'social_account_disconnected', 'social_account_reauth_required'];

/** Where events go. Emitting is idempotent by `deliveryKey`: a retried activity emits once. */
export interface Notifier {
  emit(event: HeraldEvent, deliveryKey: string): Promise<void>;
}
