import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { nostrCredentialFields, nostrSettings } from './settings';

/** Longer texts go out as long-form articles (kind 30023). */
export const NOTE_MAX_CHARS = 5_000;

export const nostrDescriptor: PlatformDescriptor = {
  id: 'nostr',
  displayName: 'Nostr',
  connect: 'credentials',
  endpoints: ['text'],
  // Relays cap event size (commonly 64-128 KB; strfry's default is 64 KB of JSON): 60,000 characters stays under it.
  limits: { textMaxChars: 60_000, textLength: codePointLength },
  settings: nostrSettings,
  credentialFields: nostrCredentialFields,
  posts: { notes: { unpublish: 'a NIP-09 deletion request' } },
};
