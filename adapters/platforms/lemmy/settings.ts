/**
 * What Lemmy accepts from Herald's clients: the post fields (link, NSFW, language, alt text), and
 * the fields of `POST /users/lemmy/credentials` (instance, username, password, community).
 *
 * lemmy_title is not a setting: the engine folds it into post.title, the post's name (at most 200
 * characters); `description` becomes the post's body (markdown).
 */
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';

const BOTH: readonly MediaKind[] = ['text', 'photo'];
/** A community as `name` or `name@instance.host` (a ! prefix may be given). */
export const COMMUNITY_REF = /^!?([a-z0-9_]{1,50})(?:@([a-z0-9.-]+(?::\d+)?))?$/i;

export const lemmySettings: SettingsSchema = {
  fields: [
    { name: 'lemmy_url', type: 'url', endpoints: ['text'], description: 'Makes a link post: the URL the post links to.' },
    { name: 'lemmy_nsfw', type: 'boolean', endpoints: BOTH, default: false, description: 'Mark the post NSFW (default false).' },
    { name: 'lemmy_language_id', type: 'integer', endpoints: BOTH, min: 0, description: 'The Lemmy language id of the post (0 = undetermined).' },
    { name: 'lemmy_alt_text', type: 'string', endpoints: ['photo'], maxLength: 1500, description: 'Alt text of the image.' },
  ],
};

export const lemmyCredentialFields: SettingsSchema = {
  fields: [
    credentialField({ name: 'instance_url', type: 'url', required: true, aliases: ['instance'], description: 'The Lemmy instance the account is on, such as https://lemmy.world.' }),
    credentialField({ name: 'username', type: 'string', required: true, aliases: ['username_or_email'], description: 'The account\'s username or email.' }),
    credentialField({ name: 'password', type: 'string', required: true, description: 'The account\'s password (Lemmy has no app passwords; accounts with 2FA cannot be connected).' }),
    credentialField({ name: 'community', type: 'string', required: true, description: 'The community to post to: its name, or name@instance for a remote one, such as technology or technology@lemmy.world.' }),
    credentialField({ name: 'name', type: 'string', description: 'The display name of the connection.' }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    if (typeof values.community === 'string' && !COMMUNITY_REF.test(values.community.trim())) {
      violations.push({ field: 'community', message: 'community must be a community name or name@instance' });
    }
    if (typeof values.username === 'string' && values.username.trim() === '') violations.push({ field: 'username', message: 'username must not be blank' });
    if (typeof values.password === 'string' && values.password === '') violations.push({ field: 'password', message: 'password must not be empty' });
    return violations;
  },
};
