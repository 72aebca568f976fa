import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { TITLE_MAX_CHARS, youtubeSettings } from './settings';

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
};
