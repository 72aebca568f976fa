/**
 * References to things that live on a network. `extra` holds what the network needs besides the
 * id to address the thing again (an X thread's post ids, a Threads reply chain, a page id), as
 * plain JSON: refs are stored and passed through workflows.
 */
export interface PostRef {
  id: string;
  url?: string;
  extra?: Record<string, unknown>;
}

export interface CommentRef {
  id: string;
  post: PostRef;
  extra?: Record<string, unknown>;
}

/** One page of a list; `cursor` is opaque to Herald and absent on the last page. */
export interface Page<T> {
  items: T[];
  cursor?: string;
}

export interface PageRequest {
  cursor?: string;
  /** Items wanted; the network may return fewer. */
  limit?: number;
}
