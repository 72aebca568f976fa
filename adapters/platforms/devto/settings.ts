/**
 * What DEV accepts: the fields of `POST /users/devto/credentials` (an API key) and an article's
 * fields (developers.forem.com/api/v1#tag/articles/operation/createArticle).
 */
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';

export const MAX_TAGS = 4;
const TAG = /^[a-z0-9]{1,30}$/;

export const devtoCredentialFields: SettingsSchema = {
  fields: [
    credentialField({
      name: 'api_key', type: 'string', required: true,
      description: 'A DEV API key (dev.to → Settings → Extensions → DEV Community API Keys → Generate API Key).',
    }),
  ],
  check(values) {
    if (typeof values.api_key === 'string' && !/^[A-Za-z0-9_-]{8,128}$/.test(values.api_key.trim())) {
      return [{ field: 'api_key', message: 'api_key must be a DEV API key' }];
    }
    return [];
  },
};

export const devtoSettings: SettingsSchema = {
  fields: [
    { name: 'devto_title', type: 'string', endpoints: ['text'], description: 'The article title on DEV; overrides title. The article body is description (markdown), else the title.' },
    { name: 'devto_tags', aliases: ['devto_tags[]'], type: 'string_list', endpoints: ['text'], maxLength: MAX_TAGS,
      description: `Up to ${MAX_TAGS} tags: lower-case letters and digits, no #.` },
    { name: 'devto_series', type: 'string', endpoints: ['text'], description: 'The series the article belongs to (created when new).' },
    { name: 'devto_canonical_url', type: 'url', endpoints: ['text'], description: 'Where the article was first published.' },
    { name: 'devto_published', type: 'boolean', endpoints: ['text'], default: true, description: 'false saves the article as a draft.' },
    { name: 'devto_main_image', type: 'url', endpoints: ['text'], description: 'The cover image, by URL.' },
    { name: 'devto_description', type: 'string', endpoints: ['text'], maxLength: 170, description: 'The summary shown in feeds and link previews.' },
    { name: 'devto_organization_id', type: 'integer', endpoints: ['text'], min: 1, description: 'Publish under this organization (the key\'s user must belong to it).' },
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    const tags = values.devto_tags as string[] | undefined;
    const bad = tags?.find((t) => !TAG.test(t.replace(/^#/, '').toLowerCase()));
    if (bad) violations.push({ field: 'devto_tags', message: `devto_tags: "${bad}" is not a DEV tag (letters and digits only, up to 30)` });
    return violations;
  },
};
