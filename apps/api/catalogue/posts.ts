import { z } from 'zod';
import { invalidInput } from '../../../core/domain/errors';
import { isPlatform, PLATFORM_ALIASES, PLATFORMS, type Platform } from '../../../core/domain/platforms';
import { POST_OPERATIONS, SIMPLE_POST_OPERATIONS, type PostOperationAnswer, type SimplePostOperation } from '../../../core/domain/post-operations';
import { refuseUnavailablePlatforms, single } from '../input';
import { operation, ruledBy, type Operation } from './types';
import { ok } from './common';
import { editing, networkEditFields, postEditorNetworks, postOperationFields, postTargetFields } from './settings';

/** The operations of POST /posts/action: edit, and every simple operation under its names. */
export const POST_ACTIONS = ['edit', ...SIMPLE_POST_OPERATIONS.flatMap((k) => [k, ...(POST_OPERATIONS[k].aliases ?? [])])];

const orList = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : items.join(''));
const andList = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items.join(''));

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

const editNetworks = postEditorNetworks('edit');

const EDIT_ERRORS = {
  400: `\`platform_not_supported\` (${editNetworks.cannot.join(', ')}; the message and \`supported_platforms\` name the networks that can), \`nothing_to_update\`, a missing post_id or user, a field the network's edit does not take, \`not_connected\`, or content the network refuses.`,
  403: 'The network refuses the account: X `premium_required`, `edit_window_closed` (30 minutes), `edit_limit_reached` (5 edits), `not_owner`; `permission_denied`.',
  404: '`PROFILE_NOT_FOUND`, or `post_not_found`: the network has no such post of this account.',
  409: '`reauth_required`: reconnect the account.',
  502: 'The network refused for another reason (its message is passed on).',
  503: '`reddit_unavailable`.',
} as const;

/** The networks that can, in registry order: those with a note (their descriptor's `posts.notes`) as `network: note`, then the rest. */
const plain = editNetworks.can.filter((n) => !n.note).map((n) => n.id);
const editDescription = `Edits a published post on its network; fields left out stay as they are. ${[
  ...editNetworks.can.filter((n) => n.note).map((n) => `${n.id}: ${n.note}`),
  ...(plain.length ? [`${plain.join(', ')}: their edit calls`] : []),
].join('; ')}. The upload's status and history then show \`edited_at\`, \`edit_count\`, \`updated_fields\` (and X's new id).`;

export const editPost = operation({
  id: 'editPost', method: 'post', path: '/svc/posts/edit', tags: ['posts'],
  summary: 'Edit a published post', description: editDescription, auth: 'apiKey',
  body: z.looseObject(editFields), bodyTypes: ['json', 'form'],
  responses: { 200: { description: 'Edited.', schema: EditAnswer } },
  errors: EDIT_ERRORS,
});

export const postAction = operation({
  id: 'postAction', method: 'post', path: '/svc/posts/action', tags: ['posts'],
  summary: `${orList(['Edit', ...SIMPLE_POST_OPERATIONS])} a post (one endpoint)`,
  description: `The same operations as ${andList(['editPost', ...SIMPLE_POST_OPERATIONS.map((k) => POST_OPERATIONS[k].operationId)])}, chosen by \`action\` (${[
    '`edit`', ...SIMPLE_POST_OPERATIONS.map((k) => [k, ...(POST_OPERATIONS[k].aliases ?? [])].map((a) => `\`${a}\``).join(' or ')),
  ].join(', ')}), with their fields and answers. ${editDescription}`,
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
    ...Object.fromEntries(SIMPLE_POST_OPERATIONS.flatMap((k) => Object.entries(postOperationFields(POST_OPERATIONS[k].fields ?? [], k)))),
  }),
  bodyTypes: ['json', 'form'],
  responses: { 200: { description: 'Done: the answer of the chosen operation.', schema: ok({ platform: z.string(), post_id: z.string(), message: z.string() }) } },
  errors: { ...EDIT_ERRORS, 400: `An unknown action; or as the operation: ${EDIT_ERRORS[400]}` },
});

/** A field of a simple operation's answer, as its schema. */
function answerSchema(answer: PostOperationAnswer): z.ZodType {
  const base = 'value' in answer.from ? z.literal(answer.from.value) : answer.type === 'boolean' ? z.boolean() : z.string();
  const described = answer.description ? base.describe(answer.description) : base;
  return answer.optional ? described.optional() : described;
}

/**
 * The simple operations (core/domain/post-operations.ts), one operation each: their fields, their
 * answer, and the networks that can from the adapters (with each network's note on it).
 */
function simpleOperation(action: SimplePostOperation): Operation {
  const spec = POST_OPERATIONS[action];
  const { can, cannot } = postEditorNetworks(action);
  const networks = can.map((n) => (n.note ? `${n.id} (${n.note})` : n.id));
  const missing = (spec.fields ?? []).filter((f) => f.required).map((f) => `${f.name} missing`);
  return operation({
    id: spec.operationId, method: 'post', path: `/svc/${spec.path}`, tags: ['posts'],
    summary: spec.summary,
    // The networks that cannot are named when they are the fewer.
    description: `${spec.description}: ${networks.join(', ')}${cannot.length && cannot.length < can.length ? `; not ${orList(cannot)}` : ''}. ${spec.shows}`,
    auth: 'apiKey',
    body: z.looseObject({ ...target, ...postOperationFields(spec.fields ?? [], action) }),
    bodyTypes: ['json', 'form'],
    responses: {
      200: {
        description: spec.answered,
        schema: ok({
          platform: z.string(), post_id: z.string(),
          ...Object.fromEntries(Object.entries(spec.answer).map(([name, answer]) => [name, answerSchema(answer)])),
          request_id: z.string().optional().describe('The upload that published the post, when Herald did.'), message: z.string(),
        }),
      },
    },
    errors: {
      ...EDIT_ERRORS,
      400: [`\`platform_not_supported\` (the networks that can ${spec.verb}: ${can.map((n) => n.id).join(', ')})`, 'a missing post_id or user', ...missing,
        ...(spec.refusals?.[400] ? [spec.refusals[400]] : []), '`not_connected`'].join(', ') + '.',
      ...(spec.refusals?.[403] ? { 403: spec.refusals[403] } : {}),
      ...(spec.refusals?.[404] ? { 404: spec.refusals[404] } : {}),
      ...(spec.refusals?.[409] ? { 409: spec.refusals[409] } : {}),
    },
  });
}

/** The simple operations' catalogue entries, by action. */
export const simplePostOperations = Object.fromEntries(SIMPLE_POST_OPERATIONS.map((k) => [k, simpleOperation(k)])) as Record<SimplePostOperation, Operation>;

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

export const postOperations = [editPost, postAction, ...Object.values(simplePostOperations), setYoutubeThumbnail];
