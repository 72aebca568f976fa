/**
 * Capabilities the next issues fill (analytics, post editing). The media library and lookups have
 * their own files (library.ts, lookups.ts).
 */
import type { CallContext } from './context';
import type { PostRef } from './refs';

export type MetricValues = Record<string, number | null>;

/** Profile and per-post metrics, in the network's own metric names mapped to the spec's. */
export interface Analytics {
  profile(ctx: CallContext, input: { since: Date; until: Date; metrics?: readonly string[] }): Promise<MetricValues>;
  post(ctx: CallContext, post: PostRef, input?: { metrics?: readonly string[] }): Promise<MetricValues>;
}

/** Changes to a published post. */
export interface PostEditor {
  edit?(ctx: CallContext, post: PostRef, changes: { text?: string; title?: string; settings?: Record<string, unknown> }): Promise<PostRef>;
  unpublish?(ctx: CallContext, post: PostRef): Promise<void>;
  repost?(ctx: CallContext, post: PostRef): Promise<PostRef>;
  save?(ctx: CallContext, post: PostRef): Promise<void>;
}
