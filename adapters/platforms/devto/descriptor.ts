import type { PlatformDescriptor } from '../../../core/ports/platform';
import { devtoCredentialFields, devtoSettings } from './settings';

/** Forem's Article model: a title is at most 128 characters. */
export const TITLE_MAX_CHARS = 128;

export const devtoDescriptor: PlatformDescriptor = {
  id: 'devto',
  displayName: 'DEV',
  connect: 'credentials',
  endpoints: ['text'],
  // The post text is the article's title; the markdown body comes from description.
  limits: { textMaxChars: TITLE_MAX_CHARS },
  settings: devtoSettings,
  credentialFields: devtoCredentialFields,
  posts: { notes: { unpublish: 'back to a draft: DEV deletes nothing' }, edit: { title: ['devto_title', 'title'], prefix: 'devto_' } },
};
