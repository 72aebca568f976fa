import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { slackCredentialFields, slackSettings } from './settings';

export const slackDescriptor: PlatformDescriptor = {
  id: 'slack',
  displayName: 'Slack',
  connect: 'credentials',
  // The spec's upload endpoints list Slack for text only.
  endpoints: ['text'],
  // chat.postMessage truncates past 40,000 characters and answers msg_too_long; refused here instead.
  limits: { textMaxChars: 40_000, textLength: codePointLength },
  settings: slackSettings,
  credentialFields: slackCredentialFields,
};
