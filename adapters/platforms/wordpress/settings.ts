/**
 * What WordPress accepts from Herald's clients: the post fields (status, categories, tags, excerpt,
 * slug) on every endpoint, and the fields of `POST /users/wordpress/credentials` (the site URL, a
 * username and an application password).
 *
 * wordpress_title is not a setting: the engine folds it into post.title (the post's title); the
 * post's content is `description`, else the title.
 */
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';

const ALL: readonly MediaKind[] = ['text', 'photo', 'video'];
export const WORDPRESS_STATUSES = ['publish', 'draft', 'pending', 'private'] as const;
const ID = /^[1-9]\d{0,18}$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const wordpressSettings: SettingsSchema = {
  fields: [
    { name: 'wordpress_status', type: 'string', endpoints: ALL, oneOf: WORDPRESS_STATUSES, default: 'publish', description: 'The post status: publish (default), draft, pending or private.' },
    { name: 'wordpress_categories', type: 'string_list', endpoints: ALL, maxLength: 100, description: 'Category ids (comma list or array), such as 3,7.' },
    { name: 'wordpress_tags', type: 'string_list', endpoints: ALL, maxLength: 100, description: 'Tag ids (comma list or array), such as 12,15.' },
    { name: 'wordpress_excerpt', type: 'string', endpoints: ALL, description: 'The post excerpt.' },
    { name: 'wordpress_slug', type: 'string', endpoints: ALL, maxLength: 200, description: 'The URL slug: lower-case letters, digits and hyphens.' },
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    for (const field of ['wordpress_categories', 'wordpress_tags'] as const) {
      const list = values[field];
      if (Array.isArray(list) && list.some((id) => !ID.test(String(id)))) violations.push({ field, message: `${field} takes numeric ids (such as 3,7)` });
    }
    if (typeof values.wordpress_slug === 'string' && !SLUG.test(values.wordpress_slug)) {
      violations.push({ field: 'wordpress_slug', message: 'wordpress_slug takes lower-case letters, digits and hyphens' });
    }
    return violations;
  },
};

/** An application password as WordPress shows it: 24 letters and digits, in groups of four or not. */
const APP_PASSWORD = /^[A-Za-z0-9]{4}(?: ?[A-Za-z0-9]{4}){5}$/;

export const wordpressCredentialFields: SettingsSchema = {
  fields: [
    credentialField({ name: 'site_url', type: 'url', required: true, aliases: ['url'], description: 'The site\'s address, such as https://blog.example.com (the REST API lives at /wp-json).' }),
    credentialField({ name: 'username', type: 'string', required: true, description: 'The WordPress username the application password belongs to.' }),
    credentialField({
      name: 'application_password', type: 'string', required: true,
      description: 'An application password (Users → Profile → Application Passwords), such as abcd EFGH 1234 ijkl MNOP 5678; not the login password.',
    }),
    credentialField({ name: 'name', type: 'string', description: 'The display name of the connection; default: the user\'s name.' }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    if (typeof values.application_password === 'string' && !APP_PASSWORD.test(values.application_password.trim())) {
      violations.push({ field: 'application_password', message: 'application_password must be a WordPress application password (24 letters and digits)' });
    }
    if (typeof values.username === 'string' && values.username.trim() === '') violations.push({ field: 'username', message: 'username must not be blank' });
    return violations;
  },
};
