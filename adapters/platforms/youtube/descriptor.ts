import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { TITLE_MAX_CHARS, youtubeSettings } from './settings';
import { ALL_BUT_REPLY } from '../../../core/domain/comments';

export const youtubeDescriptor: PlatformDescriptor = {
  id: 'youtube',
  displayName: 'YouTube',
  connect: 'oauth',
  endpoints: ['video'],
  limits: {
    // The title is the text of a YouTube post, and YouTube counts it in code points: an emoji with
    // a skin tone is two. The publisher checks the title with this same function.
    textMaxChars: TITLE_MAX_CHARS,
    textLength: codePointLength,
    // YouTube takes nearly every container (MP4, MOV, WebM, AVI, MPEG-PS, FLV, 3GPP, …): no list.
    video: { maxBytes: 256 * 1024 ** 3, maxSeconds: 12 * 3600 },
  },
  settings: youtubeSettings,
  rules: { dailyCap: 10, titleRequiredForVideo: true },
  comments: {
    operations: ALL_BUT_REPLY, create: 'any_target', actions: ['hide', 'unhide', 'hold'], actionsNeedingPost: ['hide', 'unhide', 'hold'], banAuthorOn: ['hide'],
  },
  posts: {
    notes: { edit: 'title, description, tags, privacyStatus, categoryId, publishAt (`youtube_` aliases; video_id for post_id)' },
    postIdAlias: 'video_id',
    edit: {
      title: ['youtube_title', 'title'],
      fields: [
        { name: 'description', from: ['youtube_description', 'description'], type: 'string' },
        { name: 'tags', from: ['youtube_tags', 'tags'], type: 'string_list' },
        { name: 'privacyStatus', from: ['youtube_privacyStatus', 'youtube_privacy_status', 'privacyStatus'], type: 'string', oneOf: ['public', 'unlisted', 'private'] },
        { name: 'categoryId', from: ['youtube_categoryId', 'youtube_category_id', 'categoryId'], type: 'string', pattern: { regex: /^\d+$/, meaning: 'a YouTube category number' } },
        { name: 'publishAt', from: ['youtube_publishAt', 'youtube_publish_at', 'publishAt'], type: 'datetime' },
      ],
    },
  },
  analytics: { livePostMetrics: true, impressionsMetrics: ['views', 'impressions'] },
  mediaLibrary: {},
};
