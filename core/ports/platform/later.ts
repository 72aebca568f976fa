/**
 * Kept for imports of the first port layout: every capability now has its own file (analytics.ts,
 * library.ts, lookups.ts, post-editor.ts).
 */
export type { PostEditor } from './post-editor';
