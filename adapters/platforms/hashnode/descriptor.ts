import type { PlatformDescriptor } from '../../../core/ports/platform';
import { hashnodeCredentialFields, hashnodeSettings } from './settings';

/** Herald's bound on a Hashnode title (Hashnode documents none; its editor stops long before). */
export const TITLE_MAX_CHARS = 250;

export const hashnodeDescriptor: PlatformDescriptor = {
  id: 'hashnode',
  displayName: 'Hashnode',
  connect: 'credentials',
  endpoints: ['text'],
  // The post text is the title; the markdown body comes from description.
  limits: { textMaxChars: TITLE_MAX_CHARS },
  settings: hashnodeSettings,
  credentialFields: hashnodeCredentialFields,
  posts: { edit: { title: ['hashnode_title', 'title'], prefix: 'hashnode_' } },
};
