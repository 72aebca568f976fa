/**
 * What each network offers on the comment endpoints (spec "Comments" and its table), in one place:
 * the use case validates requests against it, and names the networks that can do an operation
 * when one cannot.
 */
import type { CommentAction } from '../ports/platform/comments';
import type { Platform } from './platforms';

export type CommentOperation = 'list' | 'create' | 'delete' | 'action' | 'reply' | 'public_reply';

export interface CommentRules {
  operations: readonly CommentOperation[];
  /** `reply_only`: create needs comment_id (Instagram); `post_required`: post_id always, comment_id makes it a reply (TikTok). */
  create: 'any_target' | 'reply_only' | 'post_required';
  /** Delete needs post_id (LinkedIn). */
  deleteNeedsPost?: boolean;
  actions: readonly CommentAction[];
  /** Actions that need post_id besides (or instead of) comment_id. */
  actionsNeedingPost: readonly CommentAction[];
  /** Actions on the post itself: no comment_id. */
  postActions?: readonly CommentAction[];
  /** `comment_id` on a listing returns the replies under it. */
  listReplies?: boolean;
  /** The connection needs this capability (TikTok `comments`). */
  capability?: string;
}

const ALL_BUT_REPLY: readonly CommentOperation[] = ['list', 'create', 'delete', 'action'];

export const COMMENT_RULES: Partial<Record<Platform, CommentRules>> = {
  instagram: {
    operations: [...ALL_BUT_REPLY, 'reply', 'public_reply'], create: 'reply_only',
    actions: ['hide', 'unhide', 'enable_comments', 'disable_comments'],
    actionsNeedingPost: ['enable_comments', 'disable_comments'], postActions: ['enable_comments', 'disable_comments'],
  },
  facebook: { operations: ALL_BUT_REPLY, create: 'any_target', actions: ['hide', 'unhide', 'like', 'unlike', 'edit'], actionsNeedingPost: [] },
  youtube: { operations: ALL_BUT_REPLY, create: 'any_target', actions: ['hide', 'unhide', 'hold'], actionsNeedingPost: ['hide', 'unhide', 'hold'] },
  linkedin: { operations: ['list', 'create', 'delete'], create: 'any_target', deleteNeedsPost: true, actions: [], actionsNeedingPost: [] },
  tiktok: {
    operations: ALL_BUT_REPLY, create: 'post_required', actions: ['hide', 'unhide', 'like', 'unlike', 'pin', 'unpin'],
    actionsNeedingPost: ['hide', 'unhide', 'pin', 'unpin'], listReplies: true, capability: 'comments',
  },
  x: { operations: ['list', 'create', 'delete'], create: 'any_target', actions: [], actionsNeedingPost: [] },
  threads: { operations: ['list', 'create', 'action'], create: 'any_target', actions: ['hide', 'unhide', 'approve', 'ignore'], actionsNeedingPost: [] },
  bluesky: { operations: ['list', 'create', 'delete'], create: 'any_target', actions: [], actionsNeedingPost: [] },
};

export const COMMENT_PLATFORMS = Object.keys(COMMENT_RULES) as Platform[];

/** The networks that can do `operation` (and `action`, when given), in the table's order. */
export function commentPlatformsFor(operation: CommentOperation, action?: CommentAction): Platform[] {
  return COMMENT_PLATFORMS.filter((p) => {
    const rules = COMMENT_RULES[p]!;
    return rules.operations.includes(operation) && (action === undefined || rules.actions.includes(action));
  });
}

/** The inverse verb of each action (the spec: each action has its inverse; no booleans). */
export const INVERSE_ACTION: Partial<Record<CommentAction, CommentAction>> = {
  hide: 'unhide', unhide: 'hide', like: 'unlike', unlike: 'like', pin: 'unpin', unpin: 'pin',
  enable_comments: 'disable_comments', disable_comments: 'enable_comments', approve: 'ignore', ignore: 'approve',
};

/**
 * Facebook post ids: the video id for reels and videos, `{page_id}_{post_id}` for photo and text
 * posts. Links are read where they name those ids; share links, short links and `pfbid`
 * permalinks name none (they need the viewer's session to resolve) and give undefined.
 */
export function facebookPostIdFromUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase().replace(/^(www|m|web|mbasic)\./, '');
  if (host !== 'facebook.com') return undefined; // fb.watch, fb.me, fb.com short links
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts[0] === 'share' || /pfbid/i.test(url.pathname + url.search)) return undefined;
  const numeric = (s: string | null | undefined) => (s && /^\d+$/.test(s) ? s : undefined);
  if (parts[0] === 'permalink.php' || parts[0] === 'story.php') {
    const story = numeric(url.searchParams.get('story_fbid'));
    const page = numeric(url.searchParams.get('id'));
    return story && page ? `${page}_${story}` : undefined;
  }
  if (parts[0] === 'watch') return numeric(url.searchParams.get('v'));
  if (parts[0] === 'reel' || parts[0] === 'reels') return numeric(parts[1]);
  if (parts.length >= 3 && parts[1] === 'videos') return numeric(parts.at(-1));
  if (parts.length >= 3 && parts[1] === 'posts') {
    const page = numeric(parts[0]);
    const post = numeric(parts[2]);
    return page && post ? `${page}_${post}` : undefined;
  }
  return undefined;
}

/** A Facebook post id as the Graph API takes it: a video id, or `{page_id}_{post_id}`. */
export const isFacebookPostId = (id: string): boolean => /^\d+(_\d+)?$/.test(id);
