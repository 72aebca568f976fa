import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { invalidInput } from '../../../core/domain/errors';
import { linkedinSettings } from './settings';

/** An organization page: `urn:li:organization:<id>` or the bare numeric id (member pages have no statistics). */
const ORGANIZATION = /^(?:urn:li:organization:)?(\d{1,20})$/;

/**
 * `page_urn` as an organization URN, like the media list takes it (400 for anything else); a pin
 * that names no organization is left to the adapter's default page.
 */
function organizationUrn(raw: string, from: 'query' | 'pin'): string | undefined {
  const id = ORGANIZATION.exec(raw)?.[1];
  if (id) return `urn:li:organization:${id}`;
  if (from === 'pin') return undefined;
  throw invalidInput('page_urn must be a LinkedIn organization URN such as urn:li:organization:12345, or its numeric id (organization pages only).', { violations: [{ field: 'page_urn', message: 'not an organization URN' }] });
}

export const linkedinDescriptor: PlatformDescriptor = {
  id: 'linkedin',
  displayName: 'LinkedIn',
  connect: 'oauth',
  endpoints: ['video', 'photo', 'text', 'document'],
  limits: {
    // Commentary limit of the Posts API, counted in code points of the unescaped text (the
    // publisher checks the commentary with this same function).
    textMaxChars: 3000,
    textLength: codePointLength,
    // Length from the spec (10 min); 3 s, 500 MB and MP4 from the Videos API's specifications.
    video: { maxBytes: 500 * 1024 * 1024, minSeconds: 3, maxSeconds: 600, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
    // multiImage takes 2 to 20 images; the Images API takes JPG, PNG and GIF.
    photo: { maxCount: 20, contentTypes: ['image/jpeg', 'image/png', 'image/gif'] },
  },
  settings: linkedinSettings,
  rules: { dailyCap: 150 },
  comments: { operations: ['list', 'create', 'delete'], create: 'any_target', deleteNeedsPost: true, actions: [], actionsNeedingPost: [] },
  posts: {
    notes: { edit: 'commentary, linkedin_visibility, linkedin_disable_reshare (answers with `message`, `post_id`, `url`)', repost: 'a reshare, a new post with the original as its parent' },
    edit: {
      fields: [
        { name: 'visibility', from: ['linkedin_visibility', 'visibility', 'linkedinVisibility'], type: 'string', oneOf: ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'] },
        { name: 'disable_reshare', from: ['linkedin_disable_reshare', 'disable_reshare'], type: 'boolean' },
      ],
    },
  },
  analytics: { livePostMetrics: true, impressionsMetrics: ['reach'], accountTarget: {
      param: 'page_urn', parse: organizationUrn,
      description: 'the organization page, urn:li:organization:<id> or its numeric id; else the pinned page, else the first page the member administers. A personal profile without pages answers linkedin_page_required.',
    },
  },
  mediaLibrary: { pageParam: { name: 'page_urn', description: 'numeric organization id or urn:li:organization:<id>.' } },
  pin: { kind: 'linkedin-page', lookup: 'pages' },
};
