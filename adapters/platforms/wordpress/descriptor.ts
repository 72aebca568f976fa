import type { PlatformDescriptor } from '../../../core/ports/platform';
import { wordpressCredentialFields, wordpressSettings } from './settings';

export const wordpressDescriptor: PlatformDescriptor = {
  id: 'wordpress',
  displayName: 'WordPress',
  connect: 'credentials',
  endpoints: ['text', 'photo', 'video'],
  limits: {
    // post_title is a MySQL TEXT column: 65,535 bytes.
    textMaxChars: 65_535,
    textLength: (text) => Buffer.byteLength(text, 'utf8'),
    // The size cap is the site's own (upload_max_filesize): a refusal answers media_too_large.
    photo: { maxCount: 20, contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] },
    video: { maxBytes: 1024 * 1024 * 1024, containers: ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm'] },
  },
  settings: wordpressSettings,
  credentialFields: wordpressCredentialFields,
  posts: { edit: { title: ['wordpress_title', 'title'], prefix: 'wordpress_' } },
};
