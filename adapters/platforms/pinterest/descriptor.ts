import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { CAROUSEL_MAX, pinterestSettings, TITLE_MAX } from './settings';

export const pinterestDescriptor: PlatformDescriptor = {
  id: 'pinterest',
  displayName: 'Pinterest',
  connect: 'oauth',
  endpoints: ['video', 'photo'],
  // The spec gives no Pinterest media limits; these are Pinterest's published Pin specs.
  limits: {
    // The Pin title, in code points as the publisher counts it.
    textMaxChars: TITLE_MAX,
    textLength: codePointLength,
    video: { maxBytes: 2 * 1024 ** 3, minSeconds: 4, maxSeconds: 15 * 60, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
    photo: {
      maxBytes: 20 * 1024 ** 2, maxCount: CAROUSEL_MAX,
      contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff'],
    },
  },
  settings: pinterestSettings,
  rules: { dailyCap: 20 },
  analytics: { livePostMetrics: true, impressionsMetrics: ['impressions'] },
  mediaLibrary: {},
  posts: { notes: { save: 'any public Pin, by id; GET /svc/pinterest/boards lists the boards' } },
};

