/** What Herald knows about Facebook Pages without calling it: limits read by intake and the adapter alike. */
import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { facebookSettings } from './settings';

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
};
