import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { slackCredentialFields, slackSettings } from './settings';

/** Slack's per-file upload limit (1 GB, api.slack.com/messaging/files). */
export const SLACK_FILE_MAX_BYTES = 1024 * 1024 * 1024;
/** Files one files.completeUploadExternal call shares in a message (Herald's bound, as Discord's). */
export const SLACK_MAX_FILES = 10;

export const slackDescriptor: PlatformDescriptor = {
  id: 'slack',
  displayName: 'Slack',
  connect: 'credentials',
  // The spec's upload endpoints list Slack for text only; photo and video are Herald's documented
  // extension (issue 14): files upload v2 with a bot-token connection (a webhook stays text only).
  endpoints: ['text', 'photo', 'video'],
  // chat.postMessage truncates past 40,000 characters and answers msg_too_long; refused here instead.
  limits: {
    textMaxChars: 40_000,
    textLength: codePointLength,
    photo: { maxCount: SLACK_MAX_FILES, maxBytes: SLACK_FILE_MAX_BYTES, contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] },
    video: { maxBytes: SLACK_FILE_MAX_BYTES, containers: ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm'] },
  },
  settings: slackSettings,
  credentialFields: slackCredentialFields,
};
