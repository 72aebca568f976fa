/**
 * GET /{page-id}/posts as the Graph API answers it: the Page's published posts newest first, with
 * the fields asked for (`attachments{…}`, `full_picture`, `permalink_url`), `limit` up to 100 and
 * cursors (`after`). Needs the Page's own token with pages_read_engagement.
 */
import { graphFields, pageAfter, pickGraph, encodeCursor } from '../kit/paging';
import type { FacebookSimPage, FacebookSimPhoto, FacebookSimPost, FacebookSimVideo } from './model';

export const FACEBOOK_SIM_CDN = 'https://scontent.xx.fbcdn.net/v/t39.sim';

export function listFacebookPosts(input: {
  page: FacebookSimPage; posts: readonly FacebookSimPost[]; photos: readonly FacebookSimPhoto[]; videos: readonly FacebookSimVideo[];
  params: Record<string, string>; origin: string; path: string; paramError: (message: string) => unknown;
}): Record<string, unknown> {
  const { page, params: p } = input;
  const limit = p.limit === undefined ? 25 : Number(p.limit);
  if (!Number.isInteger(limit) || limit < 1) throw input.paramError('limit must be a positive integer');
  const all = input.posts.filter((x) => x.pageId === page.id && x.published).slice().reverse();
  const got = pageAfter(all, (x) => x.id, Math.min(limit, 100), p.after);
  if (!got) throw input.paramError('The after cursor is not valid');
  const fields = graphFields(p.fields, ['id', 'message', 'created_time']);
  const image = (id: string) => ({ image: { src: `${FACEBOOK_SIM_CDN}/${id}.jpg`, width: 720, height: 720 } });
  const data = got.items.map((post) => {
    const video = post.kind === 'video' ? input.videos.find((v) => v.postId === post.id) : undefined;
    const shots = post.attachedMedia.map((id) => input.photos.find((ph) => ph.id === id)).filter((ph): ph is FacebookSimPhoto => ph !== undefined);
    const attachment = video
      ? { media_type: 'video', type: 'video_inline', target: { id: video.id }, media: { ...image(video.id), source: `${FACEBOOK_SIM_CDN}/${video.id}.mp4` }, url: `https://www.facebook.com/${page.id}/videos/${video.id}/` }
      : shots.length > 1
        ? { media_type: 'album', type: 'album', target: { id: post.id }, media: image(shots[0]!.id), subattachments: { data: shots.map((s) => ({ media_type: 'photo', type: 'photo', target: { id: s.id }, media: image(s.id) })) } }
        : shots.length === 1 ? { media_type: 'photo', type: 'photo', target: { id: shots[0]!.id }, media: image(shots[0]!.id) } : undefined;
    const first = video?.id ?? shots[0]?.id;
    return pickGraph({
      id: post.id, message: post.message, created_time: post.createdTime, is_published: post.published,
      permalink_url: `https://www.facebook.com/${page.id}/posts/${post.id.split('_')[1]}`,
      full_picture: first ? `${FACEBOOK_SIM_CDN}/${first}.jpg` : undefined,
    }, fields, { attachments: () => (attachment ? { data: [attachment] } : undefined) });
  });
  const query = Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'after' && k !== 'access_token' && k !== 'appsecret_proof'));
  const next = got.next ? `${input.origin}${input.path}?${new URLSearchParams({ ...query, after: got.next })}` : undefined;
  return { data, paging: { cursors: { before: got.items[0] ? encodeCursor(got.items[0].id) : '', after: got.next ?? '' }, ...(next ? { next } : {}) } };
}
