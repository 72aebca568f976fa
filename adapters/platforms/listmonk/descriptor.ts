import type { PlatformDescriptor } from '../../../core/ports/platform';
import { listmonkCredentialFields, listmonkSettings } from './settings';

/** Herald's bound on the subject (or the body, when there is no description); listmonk documents none. */
export const TEXT_MAX_CHARS = 100_000;

export const listmonkDescriptor: PlatformDescriptor = {
  id: 'listmonk',
  displayName: 'listmonk',
  connect: 'credentials',
  endpoints: ['text'],
  limits: { textMaxChars: TEXT_MAX_CHARS },
  settings: listmonkSettings,
  credentialFields: listmonkCredentialFields,
};
