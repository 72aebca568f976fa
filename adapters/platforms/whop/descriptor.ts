import type { PlatformDescriptor } from '../../../core/ports/platform';
import { whopCredentialFields, whopSettings } from './settings';

/** Herald's bound on a forum post's text (Whop documents none). */
export const TEXT_MAX_CHARS = 20_000;

export const whopDescriptor: PlatformDescriptor = {
  id: 'whop',
  displayName: 'Whop',
  connect: 'credentials',
  endpoints: ['text'],
  limits: { textMaxChars: TEXT_MAX_CHARS },
  settings: whopSettings,
  credentialFields: whopCredentialFields,
  posts: { edit: { title: ['whop_title', 'title'], prefix: 'whop_' } },
};
