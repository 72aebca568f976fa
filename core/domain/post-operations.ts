import type { Platform } from './platforms';
import type { SettingField } from './settings';
import type { TargetResult } from './upload';

/**
 * The simple published-post operations (spec "Published-post operations"): one entry each, which
 * the post editor port (a method per entry), the use case (runPostOperation), the catalogue (one
 * operation per entry, and the `action` of POST /posts/action), the routes and the upload's result
 * (withPostOperations) all loop over. A new one is an entry here plus the networks' implementations
 * in their folders. `edit` and the YouTube thumbnail have inputs of their own and stay apart.
 */

/** An input field of an operation, in the vocabulary of the networks' settings (its canonical name is the request name). */
export type PostOperationField = Omit<SettingField, 'endpoints'> & {
  /** Said after `<name> is required: ` when a required field is missing; `{api}` is the API's path prefix. */
  hint?: string;
};

/** A field an operation adds to its answer, and where its value comes from. */
export interface PostOperationAnswer {
  type: 'string' | 'boolean';
  description?: string;
  /** Absent from the answer when there is no value (the network gave no URL). */
  optional?: boolean;
  /** The post the network answered (`id`, `url`), an input field's value (by its name), or always this value. */
  from: { post: 'id' | 'url' } | { field: string } | { value: string | boolean };
}

/** What an operation's network call answers: the post it made (a repost, a saved copy), or nothing. */
export interface PostMade {
  id: string;
  url?: string;
}

/** Where a post is saved (Pinterest: a board, optionally a section). */
export interface SaveTarget {
  boardId: string;
  sectionId?: string;
}

export interface PostOperationSpec<I = unknown, R extends 'post' | 'nothing' = 'post' | 'nothing'> {
  /** The path after the API's prefix (`posts/unpublish`). */
  path: string;
  /** The catalogue's operation id (and MCP tool name). */
  operationId: string;
  summary: string;
  /** What it does, without naming networks: the catalogue adds the networks that can, with each network's note (its descriptor's `posts.notes`). */
  description: string;
  /** What the upload's status and history show afterwards. */
  shows: string;
  /** The 200 answer's description (`Deleted.`). */
  answered: string;
  /** For `platform_not_supported`: "the networks that can <verb> are …". */
  verb: string;
  /** Other `action` names of POST /posts/action (`delete`). */
  aliases?: readonly string[];
  /** Its input fields besides platform, user and post_id. */
  fields?: readonly PostOperationField[];
  /** The adapter's input from the fields' values (by canonical name). */
  input(values: Record<string, unknown>): I;
  /** What the network call answers; `post` answers are PostRefs. */
  returns: R;
  /** The answer's fields besides success, platform, post_id, request_id and message. */
  answer: Readonly<Record<string, PostOperationAnswer>>;
  /** The answer's message. */
  done(platform: Platform, values: Record<string, unknown>): string;
  /** Refusals besides the common ones, by status, for the reference (no network names: the networks' notes say those). */
  refusals?: Partial<Record<400 | 403 | 404 | 409, string>>;
  /** What the stored operation records of the call. */
  record(made: PostMade | undefined, input: I): Partial<Pick<PostOperation, 'resultPostId' | 'url' | 'boardId'>>;
  /** The upload result fields the fold writes (Herald's own, never passed back to the network). */
  resultFields: readonly string[];
  /** The operation folded into the upload's result (`at`: its ISO time). */
  fold(result: TargetResult, op: PostOperation, at: string): Partial<TargetResult>;
}

const define = <I, R extends 'post' | 'nothing'>(spec: PostOperationSpec<I, R>) => spec;

const made = (op: PostOperation, at: string, more: Record<string, unknown> = {}) => ({ post_id: op.resultPostId ?? null, ...more, at });
const list = (result: TargetResult, key: string) => (result[key] as unknown[] | undefined) ?? [];

export const POST_OPERATIONS = {
  unpublish: define<undefined, 'nothing'>({
    path: 'posts/unpublish', operationId: 'unpublishPost',
    summary: 'Delete a published post from its network',
    description: 'Deletes a published post on its network',
    shows: 'The upload\'s status and history then show `unpublished: true` and `unpublished_at`.',
    answered: 'Deleted.', verb: 'unpublish posts', aliases: ['delete'],
    input: () => undefined, returns: 'nothing',
    answer: { unpublished: { type: 'boolean', from: { value: true } } },
    done: (platform) => `The ${platform} post was deleted from ${platform}.`,
    record: () => ({}),
    resultFields: ['unpublished', 'unpublished_at'],
    fold: (_result, _op, at) => ({ unpublished: true, unpublished_at: at }),
  }),
  repost: define<undefined, 'post'>({
    path: 'posts/repost', operationId: 'repostPost',
    summary: 'Repost a published post',
    description: 'Shares a post again as the profile\'s account',
    shows: 'The upload\'s status and history then list it in `reposts[]`.',
    answered: 'Reposted.', verb: 'repost',
    input: () => undefined, returns: 'post',
    answer: { repost_id: { type: 'string', from: { post: 'id' } }, url: { type: 'string', optional: true, from: { post: 'url' } } },
    done: (platform) => `The ${platform} post was reposted.`,
    refusals: { 403: 'The author disabled resharing (`reshare_disabled`), or the account may not.' },
    record: (repost) => ({ ...(repost ? { resultPostId: repost.id } : {}), ...(repost?.url ? { url: repost.url } : {}) }),
    resultFields: ['reposts'],
    fold: (result, op, at) => ({ reposts: [...list(result, 'reposts'), made(op, at, op.url ? { url: op.url } : {})] }),
  }),
  save: define<SaveTarget, 'post'>({
    path: 'posts/save', operationId: 'savePost',
    summary: 'Save a post to a board (repin)',
    description: 'Saves a post to one of the connected account\'s boards, optionally into a section, and answers the saved copy',
    shows: 'The upload\'s status and history then list it in `saves[]`.',
    answered: 'Saved.', verb: 'save posts',
    fields: [
      { name: 'board_id', aliases: ['pinterest_board_id'], type: 'string', required: true, description: 'the board to save to.', hint: 'the board to save to (GET {api}/pinterest/boards lists them).' },
      { name: 'board_section_id', aliases: ['pinterest_board_section_id'], type: 'string', description: 'a section of the board.' },
    ],
    input: (v) => ({ boardId: String(v.board_id), ...(typeof v.board_section_id === 'string' && v.board_section_id ? { sectionId: v.board_section_id } : {}) }),
    returns: 'post',
    answer: {
      saved_post_id: { type: 'string', from: { post: 'id' } },
      board_id: { type: 'string', from: { field: 'board_id' } },
      url: { type: 'string', optional: true, from: { post: 'url' } },
    },
    done: (platform, v) => `The ${platform} post was saved to board ${String(v.board_id)}.`,
    refusals: { 400: '`board_not_found`' },
    record: (saved, to) => ({ ...(saved ? { resultPostId: saved.id } : {}), boardId: to.boardId, ...(saved?.url ? { url: saved.url } : {}) }),
    resultFields: ['saves'],
    fold: (result, op, at) => ({ saves: [...list(result, 'saves'), made(op, at, op.boardId ? { board_id: op.boardId } : {})] }),
  }),
} as const;

export type SimplePostOperation = keyof typeof POST_OPERATIONS;
export const SIMPLE_POST_OPERATIONS = Object.keys(POST_OPERATIONS) as SimplePostOperation[];
/** The input an operation's network call takes. */
export type PostOperationInput<K extends SimplePostOperation> = ReturnType<(typeof POST_OPERATIONS)[K]['input']>;
/** Whether an operation's network call answers a post. */
export type PostOperationReturns<K extends SimplePostOperation> = (typeof POST_OPERATIONS)[K]['returns'];

export const isSimplePostOperation = (name: string): name is SimplePostOperation => Object.hasOwn(POST_OPERATIONS, name);

/** What was done to a published post (spec "Published-post operations"). */
export type PostOperationAction = 'edit' | 'thumbnail' | SimplePostOperation;

/**
 * One operation on a post an upload published. Stored once, never updated (each operation is
 * its own document: FerretDB loses concurrent updates of one document), and folded into the
 * upload's per-platform result when status and history are read.
 */
export interface PostOperation {
  id: string;
  accountId: string;
  requestId: string;
  platform: Platform;
  action: PostOperationAction;
  /** The post acted on. */
  postId: string;
  /** The post after the operation: X's new id after an edit; the repost or the saved pin. */
  resultPostId?: string;
  url?: string;
  /** The request fields an edit changed. */
  updated?: string[];
  /** Where a save went (Pinterest board). */
  boardId?: string;
  at: Date;
}

/** The upload result fields the operations write (Herald's own, not the network's reference to the post). */
export const POST_OPERATION_RESULT_FIELDS: readonly string[] = [
  'edited_at', 'edit_count', 'updated_fields', 'previous_post_id', 'edit_history_post_ids', 'thumbnail_set_at',
  ...SIMPLE_POST_OPERATIONS.flatMap((k) => POST_OPERATIONS[k].resultFields),
];

/**
 * A platform's result as status and history show it after its post operations, oldest first:
 * - edit: `edited_at`, `edit_count`, `updated_fields`; when the network gave the edit a new id (X)
 *   `post_id` and `url` become the new ones, `previous_post_id` the one it replaced and
 *   `edit_history_post_ids` the chain from the published id;
 * - thumbnail: `thumbnail_set_at`;
 * - the simple operations: their entry's fold (unpublish: `unpublished: true`, `unpublished_at`;
 *   repost / save: `reposts[]` / `saves[]` `{post_id, url?, board_id?, at}`).
 */
export function withPostOperations(result: TargetResult, operations: readonly PostOperation[]): TargetResult {
  if (!operations.length) return result;
  let out: TargetResult = { ...result };
  const history: string[] = result.post_id ? [result.post_id] : [];
  for (const op of [...operations].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const at = op.at.toISOString();
    if (op.action === 'edit') {
      out.edited_at = at;
      out.edit_count = Number(out.edit_count ?? 0) + 1;
      out.updated_fields = [...new Set([...(out.updated_fields as string[] | undefined ?? []), ...(op.updated ?? [])])];
      if (op.resultPostId && op.resultPostId !== out.post_id) {
        out.previous_post_id = op.postId;
        out.post_id = op.resultPostId;
        history.push(op.resultPostId);
        out.edit_history_post_ids = [...history];
      }
      if (op.url) out.url = op.url;
    } else if (op.action === 'thumbnail') {
      out.thumbnail_set_at = at;
    } else if (isSimplePostOperation(op.action)) {
      out = { ...out, ...POST_OPERATIONS[op.action].fold(out, op, at) };
    }
  }
  return out;
}
