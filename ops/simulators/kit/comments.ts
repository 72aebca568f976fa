/**
 * The comment state the network simulators share: comments under posts, threads of replies,
 * authors, moderation states (hidden, held for review, rejected, pending approval), likes and one
 * pin per post. Each network's `comments.ts` speaks its own wire format over this store and
 * decides what its network allows (own posts only, scopes, windows); the store only keeps state.
 */

export type SimModeration = 'published' | 'held' | 'rejected' | 'pending' | 'ignored';

export interface SimComment {
  id: string;
  postId: string;
  /** The comment this one answers. */
  parentId?: string;
  authorId: string;
  authorName: string;
  text: string;
  createdAt: Date;
  editedAt?: Date;
  hidden: boolean;
  moderation: SimModeration;
  likedBy: string[];
  pinned: boolean;
  /** Attached media or GIF URL (Facebook attachment_url / attachment_share_url). */
  attachment?: string;
  /** Network-specific fields (Bluesky cid and rkey, LinkedIn URN, …). */
  extra: Record<string, unknown>;
}

export interface SeedCommentInput {
  postId: string;
  text: string;
  authorId?: string;
  authorName?: string;
  parentId?: string;
  /** How long ago it was written (tests of reply windows). */
  ageMs?: number;
  moderation?: SimModeration;
  extra?: Record<string, unknown>;
}

export interface SimCommentStore {
  add(input: SeedCommentInput & { id: string; authorId: string; authorName: string }): SimComment;
  get(id: string): SimComment | undefined;
  /** Comments under `postId` (top level, or the replies under `parentId`), oldest first. */
  list(postId: string, filter?: { parentId?: string | null; all?: boolean }): SimComment[];
  /** Every comment, or those of one post. */
  all(postId?: string): SimComment[];
  /** Removes the comment and the replies under it. */
  remove(id: string): void;
  /** Pins `id`, unpinning any other comment of its post (one pin per post). */
  pin(id: string, pinned: boolean): void;
  like(id: string, by: string, liked: boolean): void;
  clear(): void;
  /** Replies under a comment. */
  replyCount(id: string): number;
}

export function createCommentStore(): SimCommentStore {
  const comments = new Map<string, SimComment>();
  const store: SimCommentStore = {
    add(input) {
      const comment: SimComment = {
        id: input.id, postId: input.postId, ...(input.parentId ? { parentId: input.parentId } : {}),
        authorId: input.authorId, authorName: input.authorName, text: input.text,
        createdAt: new Date(Date.now() - (input.ageMs ?? 0)), hidden: false, moderation: input.moderation ?? 'published',
        likedBy: [], pinned: false, extra: { ...input.extra },
      };
      comments.set(comment.id, comment);
      return comment;
    },
    get: (id) => comments.get(id),
    list(postId, filter = {}) {
      return [...comments.values()].filter((c) => c.postId === postId
        && (filter.all || (filter.parentId === undefined ? !c.parentId : filter.parentId === null ? true : c.parentId === filter.parentId)));
    },
    all: (postId) => [...comments.values()].filter((c) => postId === undefined || c.postId === postId),
    remove(id) {
      for (const reply of [...comments.values()].filter((c) => c.parentId === id)) store.remove(reply.id);
      comments.delete(id);
    },
    pin(id, pinned) {
      const target = comments.get(id);
      if (!target) return;
      if (pinned) for (const c of comments.values()) if (c.postId === target.postId) c.pinned = false;
      target.pinned = pinned;
    },
    like(id, by, liked) {
      const c = comments.get(id);
      if (!c) return;
      c.likedBy = c.likedBy.filter((x) => x !== by);
      if (liked) c.likedBy.push(by);
    },
    clear: () => comments.clear(),
    replyCount: (id) => [...comments.values()].filter((c) => c.parentId === id).length,
  };
  return store;
}

/** Offset cursors over a list (opaque text to clients): a page of `limit` items and the next cursor. */
export function pageOf<T>(items: T[], cursor: string | undefined, limit: number): { items: T[]; next?: string } | undefined {
  let start = 0;
  if (cursor) {
    const decoded = Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^o:/, ''));
    if (!Number.isInteger(decoded) || decoded < 0 || !Buffer.from(cursor, 'base64url').toString('utf8').startsWith('o:')) return undefined;
    start = decoded;
  }
  const page = items.slice(start, start + limit);
  const end = start + page.length;
  return { items: page, ...(end < items.length ? { next: Buffer.from(`o:${end}`).toString('base64url') } : {}) };
}

/** The body of the `comment` control route (`POST /__sim/comment`): a comment from another user, to test listing and moderation. */
export function seedInputOf(body: Record<string, unknown>): SeedCommentInput {
  const text = typeof body.text === 'string' ? body.text : '';
  const postId = typeof body.post_id === 'string' ? body.post_id : '';
  if (!text || !postId) throw new Error('body must be {post_id, text, author_id?, author_name?, parent_id?, age_ms?}');
  return {
    postId, text,
    ...(typeof body.author_id === 'string' ? { authorId: body.author_id } : {}),
    ...(typeof body.author_name === 'string' ? { authorName: body.author_name } : {}),
    ...(typeof body.parent_id === 'string' ? { parentId: body.parent_id } : {}),
    ...(typeof body.age_ms === 'number' ? { ageMs: body.age_ms } : {}),
  };
}
