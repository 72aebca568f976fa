/**
 * The media library: GET /{page-id}/posts with the Page's token (Graph API "Page Posts"): the
 * Page's published posts newest first, cursor paging (`after`; `paging.next` absent on the last
 * page). The media type and URL come from the first attachment; a video post is listed under its
 * video id (what the comment endpoints take for videos), photo and text posts under
 * `{page_id}_{post_id}`. Which Page: the request's (the profile's pinned page), else the only or
 * first connected one.
 */
import type { LibraryMedia, LibraryMediaType, MediaLibrary } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import { graphPage, isoTime } from '../instagram/media';
import type { FacebookClient } from './client';
import { storedPages } from './pages';
import { invalid } from './client';

const FIELDS = 'id,message,created_time,permalink_url,full_picture,attachments{media_type,type,media,target,url,subattachments}';

function item(post: Json): LibraryMedia | undefined {
  const id = str(post.id);
  if (!id) return undefined;
  const attachment = isObject(post.attachments) && Array.isArray(post.attachments.data) && isObject(post.attachments.data[0]) ? post.attachments.data[0] : undefined;
  const kind = str(attachment?.media_type);
  const mediaType: LibraryMediaType = kind === 'video' ? 'VIDEO' : kind === 'album' ? 'CAROUSEL_ALBUM' : kind === 'photo' ? 'IMAGE' : 'TEXT';
  const media = attachment && isObject(attachment.media) ? attachment.media : {};
  const picture = (isObject(media.image) ? str(media.image.src) : undefined) ?? str(post.full_picture);
  const target = attachment && isObject(attachment.target) ? str(attachment.target.id) : undefined;
  const timestamp = isoTime(post.created_time);
  return {
    id: mediaType === 'VIDEO' && target ? target : id,
    mediaType,
    ...(str(post.message) ? { caption: str(post.message) } : {}),
    ...(mediaType === 'VIDEO' ? (str(media.source) ? { mediaUrl: str(media.source) } : {}) : picture ? { mediaUrl: picture } : {}),
    ...(mediaType === 'VIDEO' && picture ? { thumbnailUrl: picture } : {}),
    ...(str(post.permalink_url) ? { permalink: str(post.permalink_url) } : {}),
    ...(timestamp ? { timestamp } : {}),
  };
}

export function createFacebookMediaLibrary(client: FacebookClient): MediaLibrary {
  return {
    maxLimit: 100,
    cursors: true,
    async list(ctx, { limit, cursor, page: wanted }) {
      const pages = storedPages(ctx.credentials);
      const page = wanted ? pages.find((p) => p.id === wanted) : pages[0];
      if (!page) {
        throw invalid('facebook_page_not_connected', wanted
          ? `Facebook Page ${wanted} is not connected; connected: ${pages.map((p) => `${p.name} (${p.id})`).join(', ') || 'none'}.`
          : 'No Facebook Page is connected to this account; reconnect it and grant a Page.');
      }
      const body = await client.graph('GET', `/${encodeURIComponent(page.id)}/posts`,
        { fields: FIELDS, limit: String(limit), after: cursor }, { token: page.token, signal: ctx.signal, expect: 'data' });
      return graphPage(body, item);
    },
  };
}
