/**
 * The Snapchat fields of the video endpoint. `snapchat_title` is not here: the engine folds it into
 * the post text, which is the Spotlight description (Stories carry no text).
 */
import type { SettingsSchema } from '../../../core/domain/settings';

export const SNAP_POST_TYPES = ['STORY', 'SPOTLIGHT'] as const;

export const snapchatSettings: SettingsSchema = {
  fields: [
    { name: 'snapchat_post_type', type: 'string', endpoints: ['video'], oneOf: SNAP_POST_TYPES, default: 'STORY',
      description: 'STORY (on the Public Profile for 24 hours) or SPOTLIGHT (the Spotlight feed, permanent; the text is its description).' },
    { name: 'snapchat_locale', type: 'string', endpoints: ['video'], maxLength: 10, default: 'en_US', description: 'SPOTLIGHT: the language of the description (en_US, fr_FR, …).' },
  ],
};
