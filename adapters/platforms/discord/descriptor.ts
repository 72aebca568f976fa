import { NO_SETTINGS } from '../../../core/domain/settings';
import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { discordCredentialFields } from './settings';

export const discordDescriptor: PlatformDescriptor = {
  id: 'discord',
  displayName: 'Discord',
  connect: 'credentials',
  // Photos and video through attachments come with the publishing engine; text today.
  endpoints: ['text'],
  // Discord counts a message's characters in code points; the publisher checks with the same function.
  limits: { textMaxChars: 2000, textLength: codePointLength },
  settings: NO_SETTINGS,
  credentialFields: discordCredentialFields,
};
