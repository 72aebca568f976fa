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

export type HeraldEvent = UploadCompletedEvent;

/** Where events go. Emitting is idempotent by `deliveryKey`: a retried activity emits once. */
export interface Notifier {
  emit(event: HeraldEvent, deliveryKey: string): Promise<void>;
}
