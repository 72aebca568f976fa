import { NO_SETTINGS } from '../../../core/domain/settings';
import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { telegramCredentialFields } from './settings';

export const telegramDescriptor: PlatformDescriptor = {
  id: 'telegram',
  displayName: 'Telegram',
  connect: 'credentials',
  // Photos and video through attachments come with the publishing engine; text today.
  endpoints: ['text'],
  // Counted in code points; the publisher checks with the same function.
  limits: { textMaxChars: 4096, textLength: codePointLength },
  settings: NO_SETTINGS,
  credentialFields: telegramCredentialFields,
};
