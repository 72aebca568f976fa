/**
 * What listmonk accepts: the fields of `POST /users/listmonk/credentials` (the instance, an API
 * user and its token, default lists) and a campaign's fields (listmonk.app/docs/apis/campaigns).
 */
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';

export const CONTENT_TYPES = ['richtext', 'html', 'markdown', 'plain'] as const;
const LIST_ID = /^\d{1,10}$/;

export const listmonkCredentialFields: SettingsSchema = {
  fields: [
    credentialField({ name: 'instance_url', type: 'url', required: true, description: 'The listmonk instance, such as https://lists.example.com.' }),
    credentialField({ name: 'api_user', type: 'string', required: true, description: 'The API user\'s name (Admin → Users → New, type API).' }),
    credentialField({ name: 'api_token', type: 'string', required: true, description: 'The token listmonk showed when the API user was created.' }),
    credentialField({ name: 'list_ids', type: 'string_list', description: 'Lists (numeric ids) campaigns go to when a post names none in listmonk_list_ids.' }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    const ids = values.list_ids as string[] | undefined;
    if (ids?.some((id) => !LIST_ID.test(id))) violations.push({ field: 'list_ids', message: 'list_ids must be numeric list ids' });
    if (typeof values.instance_url === 'string') {
      const url = new URL(values.instance_url);
      if (url.username || url.password || url.search || url.hash) violations.push({ field: 'instance_url', message: 'instance_url must be the instance\'s address only' });
    }
    if (typeof values.api_user === 'string' && !/^[\w.@+-]{1,200}$/.test(values.api_user.trim())) violations.push({ field: 'api_user', message: 'api_user must be a listmonk user name' });
    if (typeof values.api_token === 'string' && !/^[\w-]{8,256}$/.test(values.api_token.trim())) violations.push({ field: 'api_token', message: 'api_token must be a listmonk API token' });
    return violations;
  },
};

export const listmonkSettings: SettingsSchema = {
  fields: [
    { name: 'listmonk_title', type: 'string', endpoints: ['text', 'photo'], description: 'The campaign subject; overrides title. The body is description, else the title.' },
    { name: 'listmonk_list_ids', aliases: ['listmonk_list_ids[]', 'listmonk_lists'], type: 'string_list', endpoints: ['text', 'photo'],
      description: 'Lists (numeric ids) to send the campaign to; default: the connection\'s list_ids.' },
    { name: 'listmonk_template_id', type: 'integer', endpoints: ['text', 'photo'], min: 1, description: 'The campaign template; default: the instance\'s default template.' },
    { name: 'listmonk_content_type', type: 'string', endpoints: ['text', 'photo'], oneOf: CONTENT_TYPES, default: 'markdown', description: 'How the body is written: markdown (default), richtext, html or plain.' },
    { name: 'listmonk_send_at', type: 'string', endpoints: ['text', 'photo'], description: 'Schedule the campaign on listmonk at this ISO-8601 time instead of starting it now.' },
    { name: 'listmonk_from_email', type: 'string', endpoints: ['text', 'photo'], description: 'The From address, such as "News <news@example.com>"; default: the instance\'s.' },
    { name: 'listmonk_name', type: 'string', endpoints: ['text', 'photo'], maxLength: 200, description: 'The campaign\'s name in listmonk; default: the subject.' },
    { name: 'listmonk_tags', aliases: ['listmonk_tags[]'], type: 'string_list', endpoints: ['text', 'photo'], description: 'Tags on the campaign.' },
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    const ids = values.listmonk_list_ids as string[] | undefined;
    if (ids?.some((id) => !LIST_ID.test(id))) violations.push({ field: 'listmonk_list_ids', message: 'listmonk_list_ids must be numeric list ids' });
    if (typeof values.listmonk_send_at === 'string' && !Number.isFinite(Date.parse(values.listmonk_send_at))) {
      violations.push({ field: 'listmonk_send_at', message: 'listmonk_send_at must be an ISO-8601 date and time' });
    }
    return violations;
  },
};
