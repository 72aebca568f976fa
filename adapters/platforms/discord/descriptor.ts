import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { discordCredentialFields, discordSettings } from './settings';

/**
 * Upload limit of a server without boosts (10 MiB since 2024; boosted servers allow 50 / 100 MiB,
 * which a webhook cannot tell us). Discord applies it to the whole request, so the publisher also
 * checks the sum of the attachments.
 */
export const DISCORD_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** Attachments per message. */
export const DISCORD_MAX_ATTACHMENTS = 10;

export const discordDescriptor: PlatformDescriptor = {
  id: 'discord',
  displayName: 'Discord',
  connect: 'credentials',
  endpoints: ['text', 'photo', 'video'],
  // Discord counts a message's characters in code points; the publisher checks with the same function.
  limits: {
    textMaxChars: 2000,
    textLength: codePointLength,
    photo: { maxCount: DISCORD_MAX_ATTACHMENTS, maxBytes: DISCORD_UPLOAD_MAX_BYTES, contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] },
    // Any file is accepted as an attachment; these are the ones the clients play inline.
    video: { maxBytes: DISCORD_UPLOAD_MAX_BYTES, containers: ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm'] },
  },
  settings: discordSettings,
  credentialFields: discordCredentialFields,
};
