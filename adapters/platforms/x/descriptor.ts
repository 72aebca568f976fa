import type { PlatformDescriptor } from '../../../core/ports/platform';
import { xSettings } from './settings';
import { LONG_POST_MAX_WEIGHT, xWeightedLength } from './text';

export const GIF_MAX_BYTES = 15 * 1024 * 1024;

export const xDescriptor: PlatformDescriptor = {
  id: 'x',
  displayName: 'X',
  connect: 'oauth',
  endpoints: ['video', 'photo', 'text'],
  limits: {
    // Per tweet X allows 280 weighted characters, but longer texts become threads (or one Premium post).
    // Counted as X counts (weighted: CJK and emoji 2, links 23), as the publisher counts it.
    textMaxChars: LONG_POST_MAX_WEIGHT,
    textLength: xWeightedLength,
    video: { maxBytes: 8 * 1024 ** 3, minSeconds: 0.5, maxSeconds: 20 * 60, containers: ['mov,mp4,m4a,3gp,3g2,mj2'], maxFps: 60 },
    // GIFs may reach 15 MB; still images are held to 5 MB by the publisher.
    photo: { maxBytes: GIF_MAX_BYTES, contentTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] },
  },
  settings: xSettings,
  rules: { dailyCap: 50 },
  comments: { operations: ['list', 'create', 'delete'], create: 'any_target', actions: [], actionsNeedingPost: [], notes: { delete: 'its own replies' } },
  analytics: { livePostMetrics: true, impressionsMetrics: ['impressions'] },
  mediaLibrary: {},
  posts: { notes: { edit: 'the text, as a new post id within 30 minutes, at most 5 edits, Premium accounts only (answers `post_id`, `previous_post_id`, `edit_history_post_ids`, `url`, `message`)', unpublish: 'the whole edit chain', repost: 'a repost' } },
};

