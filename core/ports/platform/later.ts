/**
 * Capabilities the next issues fill (analytics). The media library, lookups and post editor have
 * their own files (library.ts, lookups.ts, post-editor.ts).
 */
import type { CallContext } from './context';
import type { PostRef } from './refs';

export type MetricValues = Record<string, number | null>;

/** Profile and per-post metrics, in the network's own metric names mapped to the spec's. */
export interface Analytics {
  profile(ctx: CallContext, input: { since: Date; until: Date; metrics?: readonly string[] }): Promise<MetricValues>;
  post(ctx: CallContext, post: PostRef, input?: { metrics?: readonly string[] }): Promise<MetricValues>;
}

/** Changes to a published post: core/ports/platform/post-editor.ts. */
export type { PostEditor } from './post-editor';
