import { z } from 'zod';
import { invalidInput } from '../../../core/domain/errors';
import { isPlatform, PLATFORM_ALIASES, PLATFORMS, type Platform } from '../../../core/domain/platforms';
import { refuseUnavailablePlatforms, single } from '../input';
import { operation, ruledBy } from './types';
import { ok } from './common';
import { editing, networkEditFields, postTargetFields } from './settings';

/** The operations of POST /posts/action. */
const POST_ACTIONS = ['edit', 'unpublish', 'delete', 'repost', 'save'];

/** `platform` of /posts/*: reddit answers 503 first, then a missing or unknown network (aliases such as twitter are taken). */
export function platformOf(value: unknown): Platform {
  refuseUnavailablePlatforms(value);
  const raw = single(value);
  if (typeof raw !== 'string' || !raw) throw invalidInput('platform is required.', { violations: [{ field: 'platform', message: 'required' }] });
  const lower = raw.trim().toLowerCase();
  const platform = PLATFORM_ALIASES[lower] ?? lower;
  if (!isPlatform(platform)) throw invalidInput(`Unknown platform "${raw}".`, { violations: [{ field: 'platform', message: 'unknown platform' }] }, 'platform_not_supported');
  return platform;
}

/** A post id: text, or a number (ids sent as JSON numbers). */
const PostId = z.union([z.string(), z.number()], { error: 'post_id must be text: the published post\'s id' });

/** The new text under one of its names: only the first of them sent counts (the others are ignored, as by the edit). */
const editText = (what: string, names: readonly string[]) => ruledBy((v, all) => {
  const firstSent = names.find((n) => all[n] !== undefined && all[n] !== null);
  return editing(all) && firstSent !== undefined && all[firstSent] === v ? single(v) : undefined;
}, z.string({ error: `${what} must be text` }).optional());

const boardFields = {
  board_id: z.string({ error: 'board_id must be text: the board to save to' }).optional().describe('save: the Pinterest board (required; alias pinterest_board_id).'),
  pinterest_board_id: z.string({ error: 'pinterest_board_id must be text: the board to save to' }).optional().describe('Alias of board_id.'),
  board_section_id: z.string().optional().describe('save: a section of the board (alias pinterest_board_section_id).'),
  pinterest_board_section_id: z.string().optional().describe('Alias of board_section_id.'),
};

/** Published-post operations (spec "Published-post operations", youtube/thumbnail): apps/api/routes/posts.ts. */

/**
 * platform, user and post_id as every operation takes them. Whether the network has the operation,
 * and so whether user and post_id are still missing, is the use case's (its registry): here their
 * type; reddit answers 503 and an unknown network 400 `platform_not_supported` first.
 */
const target = {
  platform: ruledBy(platformOf, z.enum(PLATFORMS).describe('The network of the post (facebook, linkedin, x, youtube, telegram, discord, mastodon, google_business, …; aliases such as twitter).')),
  user: z.string({ error: 'user must be the profile username (text)' }).optional().describe('The profile whose connected account published the post (required; alias profile_username).'),
  profile_username: z.string({ error: 'profile_username must be the profile username (text)' }).optional().describe('Alias of user.'),
  post_id: PostId.optional().describe('The post id on the network, as the upload result gave it (required; YouTube: the video id; LinkedIn: the post URN; Facebook: {page_id}_{post_id} or the video id; X: the latest id after edits).'),
  ...postTargetFields(),
};

/** The edit's fields: the new text, and every network's own (its descriptor's `posts.edit`), checked as the network named in `platform` reads them. */
const editFields = {
  ...target,
  message: editText('message', ['message', 'text', 'commentary']).describe('The new text (Facebook message, X text, LinkedIn commentary, a message\'s text or caption; YouTube: the description).'),
  text: editText('message', ['message', 'text', 'commentary']).describe('Alias of message.'),
  commentary: editText('message', ['message', 'text', 'commentary']).describe('Alias of message (LinkedIn).'),
  ...networkEditFields(),
};

const EditAnswer = ok({
  platform: z.string(),
  post_id: z.string().describe('The post after the edit: a new id on X.'),
  url: z.string().optional(),
  updated: z.array(z.string()).describe('The fields changed.'),
  previous_post_id: z.string().optional().describe('X: the id the edit replaced.'),
  edit_history_post_ids: z.array(z.string()).optional().describe('X: every id of the post, oldest first.'),
  request_id: z.string().optional().describe('The upload that published the post, when Herald did; its status and history show the edit.'),
  message: z.string(),
});

const EDIT_ERRORS = {
  400: '`platform_not_supported` (instagram, tiktok, threads, …; the message and `supported_platforms` name the networks that can), `nothing_to_update`, a missing post_id or user, a field the network\'s edit does not take, `not_connected`, or content the network refuses.',
  403: 'The network refuses the account: X `premium_required`, `edit_window_closed` (30 minutes), `edit_limit_reached` (5 edits), `not_owner`; `permission_denied`.',
  404: '`PROFILE_NOT_FOUND`, or `post_not_found`: the network has no such post of this account.',
  409: '`reauth_required`: reconnect the account.',
  502: 'The network refused for another reason (its message is passed on).',
  503: '`reddit_unavailable`.',
} as const;

const editDescription = 'Edits a published post on its network; fields left out stay as they are. facebook: message, is_pinned, scheduled_publish_time (answers `{success, platform, post_id, updated[]}`); linkedin: commentary, linkedin_visibility, linkedin_disable_reshare (answers with `message`, `post_id`, `url`); x: the text, as a new post id within 30 minutes, at most 5 edits, Premium accounts only (answers `post_id`, `previous_post_id`, `edit_history_post_ids`, `url`, `message`); youtube: title, description, tags, privacyStatus, categoryId, publishAt (`youtube_` aliases; video_id for post_id); google_business (summary and gbp_ fields), telegram, discord, mastodon (and mastodon_ fields), hashnode, whop, devto, wordpress, lemmy, slack: their edit calls. The upload\'s status and history then show `edited_at`, `edit_count`, `updated_fields` (and X\'s new id).';

export const editPost = operation({
  id: 'editPost', method: 'post', path: '/svc/posts/edit', tags: ['posts'],
  summary: 'Edit a published post', description: editDescription, auth: 'apiKey',
  body: z.looseObject(editFields), bodyTypes: ['json', 'form'],
  responses: { 200: { description: 'Edited.', schema: EditAnswer } },
  errors: EDIT_ERRORS,
});

export const postAction = operation({
  id: 'postAction', method: 'post', path: '/svc/posts/action', tags: ['posts'],
  summary: 'Edit, unpublish, repost or save a post (one endpoint)',
  description: `The same operations as editPost, unpublishPost, repostPost and savePost, chosen by \`action\` (\`edit\`, \`unpublish\` or \`delete\`, \`repost\`, \`save\`), with their fields and answers. ${editDescription}`,
  auth: 'apiKey',
  body: z.looseObject({
    action: ruledBy((v) => {
      const action = single(v);
      if (typeof action !== 'string' || !POST_ACTIONS.includes(action.toLowerCase())) {
        throw invalidInput(`action must be one of ${POST_ACTIONS.join(', ')}.`, { violations: [{ field: 'action', message: 'unknown action' }] });
      }
      return action.toLowerCase();
    }, z.enum(POST_ACTIONS).describe('The operation.')),
    ...editFields,
    ...boardFields,
  }),
  bodyTypes: ['json', 'form'],
  responses: { 200: { description: 'Done: the answer of the chosen operation.', schema: ok({ platform: z.string(), post_id: z.string(), message: z.string() }) } },
  errors: { ...EDIT_ERRORS, 400: `An unknown action; or as the operation: ${EDIT_ERRORS[400]}` },
});

export const unpublishPost = operation({
  id: 'unpublishPost', method: 'post', path: '/svc/posts/unpublish', tags: ['posts'],
  summary: 'Delete a published post from its network',
  description: 'Deletes a published post on its network: facebook, linkedin, x (the whole edit chain), youtube, pinterest, bluesky, google_business, telegram (every message of the post), discord, mastodon, slack, wordpress, lemmy, hashnode, devto (back to a draft: DEV deletes nothing), nostr (a NIP-09 deletion request), snapchat; not instagram, tiktok or threads. The upload\'s status and history then show `unpublished: true` and `unpublished_at`.',
  auth: 'apiKey',
  body: z.looseObject(target),
  bodyTypes: ['json', 'form'],
  responses: { 200: { description: 'Deleted.', schema: ok({ platform: z.string(), post_id: z.string(), unpublished: z.literal(true), request_id: z.string().optional(), message: z.string() }) } },
  errors: { ...EDIT_ERRORS, 400: '`platform_not_supported` naming the networks that can, a missing post_id or user, `not_connected`.' },
});

export const repostPost = operation({
  id: 'repostPost', method: 'post', path: '/svc/posts/repost', tags: ['posts'],
  summary: 'Repost (LinkedIn reshare, X repost)',
  description: 'Shares a post again as the profile\'s account: a LinkedIn reshare (a new post with the original as its parent) or an X repost. The upload\'s status and history then list it in `reposts[]`.',
  auth: 'apiKey',
  body: z.looseObject(target), bodyTypes: ['json', 'form'],
  responses: { 200: { description: 'Reposted.', schema: ok({ platform: z.string(), post_id: z.string(), repost_id: z.string(), url: z.string().optional(), message: z.string() }) } },
  errors: { ...EDIT_ERRORS, 400: '`platform_not_supported` (linkedin and x repost), a missing post_id or user, `not_connected`.', 403: 'The author disabled resharing (LinkedIn), or the account may not.' },
});

export const savePost = operation({
  id: 'savePost', method: 'post', path: '/svc/posts/save', tags: ['posts'],
  summary: 'Save a Pin to a board (Pinterest repin)',
  description: 'Saves a Pin (any public Pin, by id) to one of the connected Pinterest account\'s boards, optionally into a section; answers the new Pin. GET /svc/pinterest/boards lists the boards.',
  auth: 'apiKey',
  body: z.looseObject({ ...target, ...boardFields }),
  bodyTypes: ['json', 'form'],
  responses: { 200: { description: 'Saved.', schema: ok({ platform: z.string(), post_id: z.string(), saved_post_id: z.string(), board_id: z.string(), url: z.string().optional(), message: z.string() }) } },
  errors: { ...EDIT_ERRORS, 400: '`platform_not_supported` (pinterest only), board_id missing, `board_not_found`, `not_connected`.' },
});

export const setYoutubeThumbnail = operation({
  id: 'setYoutubeThumbnail', method: 'post', path: '/svc/youtube/thumbnail', tags: ['posts'],
  summary: 'Set the thumbnail of a published YouTube video',
  description: 'Sets a published video\'s thumbnail (YouTube thumbnails.set): a JPG, PNG, GIF or BMP image up to 2 MB, as the file part `thumbnail` (or `file`) or a public `thumbnail_url`. The channel must be verified. The upload\'s status then shows `thumbnail_set_at`.',
  auth: 'apiKey',
  body: z.looseObject({
    user: target.user,
    profile_username: target.profile_username,
    video_id: PostId.optional().describe('The video id (required; alias post_id).'),
    post_id: PostId.optional().describe('Alias of video_id.'),
    thumbnail_url: z.string().optional().describe('A public URL of the image, instead of the file.'),
  }),
  bodyTypes: ['multipart', 'json', 'form'],
  files: { thumbnail: { description: 'The image (alias `file`).', contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/bmp'] } },
  responses: { 200: { description: 'Set.', schema: ok({ platform: z.literal('youtube'), video_id: z.string(), thumbnail_url: z.string().optional(), message: z.string() }) } },
  errors: { ...EDIT_ERRORS, 400: 'No image, an image YouTube does not take (type, 2 MB), a missing video_id or user, `not_connected`.', 403: 'The channel is not verified for custom thumbnails, or the video is another channel\'s.' },
  mcp: { files: { thumbnail: ['url', 'base64'] } },
});

export const postOperations = [editPost, postAction, unpublishPost, repostPost, savePost, setYoutubeThumbnail];
