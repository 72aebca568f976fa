import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { linkedinSettings } from './settings';

export const linkedinDescriptor: PlatformDescriptor = {
  id: 'linkedin',
  displayName: 'LinkedIn',
  connect: 'oauth',
  endpoints: ['video', 'photo', 'text', 'document'],
  limits: {
    // Commentary limit of the Posts API, counted in code points of the unescaped text (the
    // publisher checks the commentary with this same function).
    textMaxChars: 3000,
    textLength: codePointLength,
    // Length from the spec (10 min); 3 s, 500 MB and MP4 from the Videos API's specifications.
    video: { maxBytes: 500 * 1024 * 1024, minSeconds: 3, maxSeconds: 600, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
    // multiImage takes 2 to 20 images; the Images API takes JPG, PNG and GIF.
    photo: { maxCount: 20, contentTypes: ['image/jpeg', 'image/png', 'image/gif'] },
  },
  settings: linkedinSettings,
  rules: { dailyCap: 150 },
  comments: { operations: ['list', 'create', 'delete'], create: 'any_target', deleteNeedsPost: true, actions: [], actionsNeedingPost: [] },
  posts: {
    edit: {
      fields: [
        { name: 'visibility', from: ['linkedin_visibility', 'visibility', 'linkedinVisibility'], type: 'string', oneOf: ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'] },
        { name: 'disable_reshare', from: ['linkedin_disable_reshare', 'disable_reshare'], type: 'boolean' },
      ],
    },
  },
  analytics: { livePostMetrics: true, impressionsMetrics: ['reach'] },
  pin: { kind: 'linkedin-page', lookup: 'pages' },
};
