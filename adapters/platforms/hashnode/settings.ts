/**
 * What Hashnode accepts: the fields of `POST /users/hashnode/credentials` (a personal access token
 * and the publication to post to) and a post's fields (PublishPostInput).
 */
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';

export const MAX_TAGS = 5;

export const hashnodeCredentialFields: SettingsSchema = {
  fields: [
    credentialField({
      name: 'access_token', type: 'string', required: true,
      description: 'A Hashnode personal access token (hashnode.com/settings/developer → Generate new token).',
    }),
    credentialField({
      name: 'publication_id', type: 'string', required: true,
      description: 'The id of the publication (blog) to post to: Blog dashboard → the id in its URL, 24 hexadecimal characters.',
    }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    if (typeof values.publication_id === 'string' && !/^[a-f0-9]{24}$/i.test(values.publication_id.trim())) {
      violations.push({ field: 'publication_id', message: 'publication_id must be a Hashnode publication id (24 hexadecimal characters)' });
    }
    if (typeof values.access_token === 'string' && !/^[\w-]{8,128}$/.test(values.access_token.trim())) {
      violations.push({ field: 'access_token', message: 'access_token must be a Hashnode personal access token' });
    }
    return violations;
  },
};

export const hashnodeSettings: SettingsSchema = {
  fields: [
    { name: 'hashnode_title', type: 'string', endpoints: ['text'], description: 'The post title on Hashnode; overrides title. The post body is description (markdown), else the title.' },
    { name: 'hashnode_subtitle', type: 'string', endpoints: ['text'], maxLength: 150, description: 'The subtitle under the title.' },
    { name: 'hashnode_tags', aliases: ['hashnode_tags[]'], type: 'string_list', endpoints: ['text'], maxLength: MAX_TAGS,
      description: `Up to ${MAX_TAGS} tags, by slug (such as javascript).` },
    { name: 'hashnode_cover_image_url', type: 'url', endpoints: ['text'], description: 'The cover image, by URL.' },
    { name: 'hashnode_original_article_url', aliases: ['hashnode_canonical_url'], type: 'url', endpoints: ['text'], description: 'Where the post was first published (canonical URL).' },
    { name: 'hashnode_slug', type: 'string', endpoints: ['text'], maxLength: 250, description: 'The post\'s URL slug; default: made from the title.' },
    { name: 'hashnode_series_id', type: 'string', endpoints: ['text'], description: 'Add the post to this series of the publication.' },
    { name: 'hashnode_disable_comments', type: 'boolean', endpoints: ['text'], description: 'Close the post to comments.' },
  ],
  check(values) {
    const tags = values.hashnode_tags as string[] | undefined;
    const bad = tags?.find((t) => !/^[a-z0-9-]{1,50}$/i.test(t.replace(/^#/, '')));
    return bad ? [{ field: 'hashnode_tags', message: `hashnode_tags: "${bad}" is not a tag slug (letters, digits and -)` }] : [];
  },
};
