import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { googleBusinessSettings } from './settings';

/** A local post's summary (Google's limit). */
export const GBP_SUMMARY_MAX = 1500;
/** Photos: JPEG or PNG, 10 KB to 5 MB, at least 250 x 250 px (the minimum size is checked by the publisher). */
export const GBP_PHOTO_MIN_BYTES = 10 * 1024;
export const GBP_PHOTO_MAX_BYTES = 5 * 1024 * 1024;

export const googleBusinessDescriptor: PlatformDescriptor = {
  id: 'google_business',
  displayName: 'Google Business Profile',
  connect: 'oauth',
  endpoints: ['text', 'photo', 'video'],
  limits: {
    textMaxChars: GBP_SUMMARY_MAX,
    textLength: codePointLength,
    photo: { maxCount: 10, maxBytes: GBP_PHOTO_MAX_BYTES, contentTypes: ['image/jpeg', 'image/png'] },
    // Business Profile videos: up to 30 s, 75 MB, 720p or more.
    video: { maxBytes: 75 * 1024 * 1024, maxSeconds: 30, minShortSidePx: 720, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
  },
  settings: googleBusinessSettings,
  posts: { notes: { edit: 'summary and gbp_ fields' }, edit: { prefix: 'gbp_' } },
  analytics: { accountTarget: { param: 'gbp_location_id', description: 'the location id (an extension); else the pinned location, else the only location of the connection.' } },
  pin: { kind: 'google-business-location', lookup: 'locations' },
};
