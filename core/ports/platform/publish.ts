import type { MediaRef } from '../../domain/media';
import type { MediaKind } from '../../domain/platforms';
import type { PublishContext } from './context';

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

export interface PublishOutcome {
  postId: string;
  url?: string;
  warnings: string[];
  /**
   * Platform-specific result fields of the spec (fallback_to_inbox, thumbnail_error, playlists, …).
   * `publish_id` here is the network's own publish id where it has one (TikTok).
   */
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

/** The reference to a published post, from its outcome (what comments and later edits address). */
export const postRefOf = (outcome: PublishOutcome): import('./refs').PostRef => ({
  id: outcome.postId,
  ...(outcome.url ? { url: outcome.url } : {}),
  ...(outcome.extra ? { extra: outcome.extra } : {}),
});
