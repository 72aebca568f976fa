/**
 * What Whop accepts: the fields of `POST /users/whop/credentials` (an API key and the forum
 * experience to post in) and a forum post's fields (docs.whop.com/api-reference/forum-posts/create-forum-post).
 */
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';

export const whopCredentialFields: SettingsSchema = {
  fields: [
    credentialField({
      name: 'api_key', type: 'string', required: true,
      description: 'A Whop company API key with the forum:post:create and experience:read permissions (whop.com/dashboard/developer).',
    }),
    credentialField({
      name: 'experience_id', type: 'string', required: true,
      description: 'The forum experience to post in, such as exp_xxxxxxxxxxxxxx (the exp_ id in the forum\'s URL).',
    }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    if (typeof values.experience_id === 'string' && !/^exp_[A-Za-z0-9]{4,64}$/.test(values.experience_id.trim())) {
      violations.push({ field: 'experience_id', message: 'experience_id must be a Whop experience id (exp_…)' });
    }
    if (typeof values.api_key === 'string' && !/^[\w.-]{8,256}$/.test(values.api_key.trim())) {
      violations.push({ field: 'api_key', message: 'api_key must be a Whop API key' });
    }
    return violations;
  },
};

export const whopSettings: SettingsSchema = {
  fields: [
    { name: 'whop_title', type: 'string', endpoints: ['text'],
      description: 'The forum post text on Whop; overrides title. With description, the text becomes the post\'s title and description its markdown body.' },
    { name: 'whop_pinned', type: 'boolean', endpoints: ['text'], description: 'Pin the post to the top of the forum.' },
    { name: 'whop_visibility', type: 'string', endpoints: ['text'], oneOf: ['members_only', 'globally_visible'], description: 'Who sees the post: members_only or globally_visible.' },
    { name: 'whop_attachment_ids', aliases: ['whop_attachment_ids[]'], type: 'string_list', endpoints: ['text'], maxLength: 10,
      description: 'Files already uploaded to Whop (file_… ids) to attach to the post.' },
  ],
  check(values) {
    const ids = values.whop_attachment_ids as string[] | undefined;
    const bad = ids?.find((id) => !/^file_[A-Za-z0-9]{4,64}$/.test(id));
    return bad ? [{ field: 'whop_attachment_ids', message: `whop_attachment_ids: "${bad}" is not a Whop file id (file_…)` }] : [];
  },
};
