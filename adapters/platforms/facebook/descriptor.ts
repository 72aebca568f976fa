/** What Herald knows about Facebook Pages without calling it: limits read by intake and the adapter alike. */
import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { facebookSettings } from './settings';
import { ALL_BUT_REPLY } from '../../../core/domain/comments';

export const facebookDescriptor: PlatformDescriptor = {
  id: 'facebook',
  displayName: 'Facebook Pages',
  connect: 'oauth',
  endpoints: ['video', 'photo', 'text'],
  limits: {
    // Facebook's post text limit, in code points as the publisher counts it.
    textMaxChars: 63_206,
    textLength: codePointLength,
    // Spec: 240 min. 10 GB is the Video API's file limit.
    video: { maxBytes: 10 * 1000 ** 3, maxSeconds: 240 * 60 },
    // /{page}/photos: JPEG, BMP, PNG, GIF, TIFF, under 4 MB (PNG as it is: no rendition needed).
    photo: { maxBytes: 4 * 1024 * 1024, contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff'] },
  },
  settings: facebookSettings,
  comments: { operations: ALL_BUT_REPLY, create: 'any_target', actions: ['hide', 'unhide', 'like', 'unlike', 'edit'], actionsNeedingPost: [], attachments: true },
  posts: {
    notes: { edit: 'message, is_pinned, scheduled_publish_time (answers `{success, platform, post_id, updated[]}`)' },
    targetFields: { facebook_page_id: 'page_id' },
    edit: {
      fields: [
        { name: 'is_pinned', from: ['is_pinned', 'facebook_is_pinned'], type: 'boolean' },
        { name: 'scheduled_publish_time', from: ['scheduled_publish_time', 'facebook_scheduled_publish_time'], type: 'integer', min: 1, description: 'Unix seconds' },
      ],
    },
  },
  analytics: {
    livePostMetrics: true, impressionsMetrics: ['reach'],
    accountTarget: {
      param: 'page_id', description: 'the page id (required unless a page is pinned to the profile).',
      required: 'the id of the Facebook page to read (GET /facebook/pages lists them).',
    },
    // Page insights: any window up to a year (read in 90-day chunks).
    days: { min: 1, max: 365, default: 30 },
  },
  mediaLibrary: { pageParam: { name: 'facebook_page_id', description: 'which connected Page (default: the pinned, else the first).' } },
  pin: { kind: 'facebook-page', lookup: 'pages' },
};
