import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { snapchatSettings } from './settings';

/** A Spotlight description, hashtags included. */
export const SNAP_DESCRIPTION_MAX = 160;

export const snapchatDescriptor: PlatformDescriptor = {
  id: 'snapchat',
  displayName: 'Snapchat',
  connect: 'oauth',
  endpoints: ['video'],
  limits: {
    textMaxChars: SNAP_DESCRIPTION_MAX,
    textLength: codePointLength,
    // Public Profile Stories and Spotlight: MP4, 5 to 60 seconds, at most 500 MB.
    video: { maxBytes: 500 * 1024 * 1024, minSeconds: 5, maxSeconds: 60, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
  },
  settings: snapchatSettings,
};
