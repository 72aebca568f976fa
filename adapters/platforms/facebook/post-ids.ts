/**
 * Facebook post ids as the Graph API takes them: the video id for reels and videos,
 * `{page_id}_{post_id}` for photo and text posts, and the links that name them.
 */
import type { Comments } from '../../../core/ports/platform';

/**
 * The post id a facebook.com link names. Share links, short links and `pfbid` permalinks name
 * none (they need the viewer's session to resolve) and give undefined.
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

/** How the comment endpoints read Facebook post ids and links (400 invalid_post_id, invalid_post_url). */
export const facebookPostIds: Required<Pick<Comments, 'postIdFromUrl' | 'postIdProblem' | 'unreadableUrl'>> = {
  postIdFromUrl: facebookPostIdFromUrl,
  postIdProblem: (id) => (isFacebookPostId(id) ? undefined
    : `Facebook post_id "${id}" is not a post id: send the video id for reels and videos, or {page_id}_{post_id} for photo and text posts.`),
  unreadableUrl: (url) => `The Facebook post_url "${url}" cannot be read: share links, short links and pfbid permalinks name no post. Send post_id (the video id, or {page_id}_{post_id}).`,
};
