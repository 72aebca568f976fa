/**
 * Published-post operations (spec "Published-post operations", "Known by path only"):
 * POST /posts/edit (and /posts/action with `action`), one route per simple operation
 * (POST_OPERATIONS: /posts/unpublish, /posts/repost, /posts/save, …), /youtube/thumbnail. The use
 * cases are core/usecases/post-operations.ts; this file reads and checks each network's edit fields
 * (its descriptor's `posts`) and each operation's fields, and shapes the answers.
 */
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { z } from 'zod';
import { invalidInput } from '../../../core/domain/errors';
import type { Platform } from '../../../core/domain/platforms';
import { POST_OPERATIONS, SIMPLE_POST_OPERATIONS, type PostOperationInput, type PostOperationSpec, type SimplePostOperation } from '../../../core/domain/post-operations';
import { convertSetting } from '../../../core/domain/settings';
import type { PostChanges, PostFields, PostRef } from '../../../core/ports/platform';
import { editPost, requireOperation, runPostOperation, setPostThumbnail, type PostTarget } from '../../../core/usecases/post-operations';
import { removeTempFiles, takeMedia } from '../media-intake';
import { bodyFields, parse, refuseUnavailablePlatforms, single } from '../input';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/posts';
import { platformOf } from '../catalogue/posts';

const text = (name: string) => z.preprocess(single, z.string({ error: `${name} must be text` }).optional());

/** Fields every operation reads (never a network's edit field); a network adds its post_id alias and target fields (its descriptor's `posts`). */
const COMMON = ['platform', 'user', 'profile_username', 'post_id', 'action', 'message', 'text', 'commentary'];

const first = (fields: Record<string, unknown>, names: readonly string[]) => {
  for (const name of names) if (fields[name] !== undefined && fields[name] !== null) return fields[name];
  return undefined;
};

/** platform, user and post_id (or the network's alias of it, YouTube video_id), as every operation takes them. */
function targetOf(deps: ApiDeps, fields: Record<string, unknown>): PostTarget {
  const platform = platformOf(fields.platform);
  const postFields = deps.platforms.get(platform)?.descriptor.posts;
  const user = single(fields.user ?? fields.profile_username);
  const alias = postFields?.postIdAlias;
  const postId = single(fields.post_id ?? (alias ? fields[alias] : undefined));
  const missing = [
    ...(typeof user === 'string' && user ? [] : [{ field: 'user', message: 'required: the profile username' }]),
    ...(typeof postId === 'string' && postId ? [] : typeof postId === 'number' ? [] : [{ field: 'post_id', message: `required: the published post's id${alias ? ` (or ${alias})` : ''}` }]),
  ];
  if (missing.length) throw invalidInput(missing.map((m) => `${m.field} is ${m.message}`).join('; '), { violations: missing });
  const extra: Record<string, string> = {};
  for (const [field, name] of Object.entries(postFields?.targetFields ?? {})) {
    const value = single(fields[field]);
    if (typeof value === 'string' && value) extra[name] = value;
  }
  return { platform, user: String(user), postId: String(postId), ...(Object.keys(extra).length ? { extra } : {}) };
}

/** The edit's changes; 400 when it has none, or a field this network's edit does not take. */
function changesOf(platform: Platform, postFields: PostFields | undefined, fields: Record<string, unknown>): PostChanges & { sent: string[] } {
  const declared = postFields?.edit?.fields ?? [];
  const titleFrom = postFields?.edit?.title ?? [];
  const prefix = postFields?.edit?.prefix;
  const known = new Set([
    ...COMMON, ...(postFields?.postIdAlias ? [postFields.postIdAlias] : []), ...Object.keys(postFields?.targetFields ?? {}),
    ...titleFrom, ...declared.flatMap((d) => d.from),
  ]);
  const unknown = Object.keys(fields).filter((k) => !known.has(k) && !(prefix && k.startsWith(prefix)));
  const takes = [...['message', 'text', 'commentary'], ...titleFrom, ...declared.map((d) => d.from[0]!), ...(prefix ? [`${prefix}*`] : [])];
  if (unknown.length) {
    throw invalidInput(`${platform} edits do not take ${unknown.join(', ')}; they take ${takes.join(', ')}.`,
      { violations: unknown.map((field) => ({ field, message: `not an edit field of ${platform}` })) });
  }
  const newText = parse(z.object({ value: text('message') }), { value: first(fields, ['message', 'text', 'commentary']) }).value;
  const title = titleFrom.length ? parse(z.object({ value: text('title') }), { value: first(fields, titleFrom) }).value : undefined;
  const settings: Record<string, unknown> = {};
  const sent: string[] = [];
  if (newText !== undefined) sent.push('message');
  if (title !== undefined) sent.push('title');
  for (const decl of declared) {
    const raw = first(fields, decl.from);
    if (raw === undefined) continue;
    const { value, error } = convertSetting(decl, raw);
    if (error) throw invalidInput(`${decl.from[0]} ${error}.`, { violations: [{ field: decl.from[0], message: `${decl.from[0]} ${error}` }] });
    settings[decl.name] = value;
    sent.push(decl.name);
  }
  if (prefix) for (const [k, v] of Object.entries(fields)) if (k.startsWith(prefix)) { settings[k] = v; sent.push(k); }
  if (!sent.length) {
    throw invalidInput(`Nothing to update: send at least one of ${takes.join(', ')}.`, { violations: [{ field: '(body)', message: 'nothing to update' }] }, 'nothing_to_update');
  }
  return { ...(newText !== undefined ? { text: newText } : {}), ...(title !== undefined ? { title } : {}), ...(Object.keys(settings).length ? { settings } : {}), sent };
}

/** A simple operation's field values by canonical name (the first of its names sent); 400 for a missing required one or a value it cannot read. */
function valuesOf(spec: PostOperationSpec, fields: Record<string, unknown>, ns: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of spec.fields ?? []) {
    const raw = first(fields, [field.name, ...(field.aliases ?? [])].filter((n) => fields[n] !== ''));
    if (raw === undefined) {
      if (field.required) {
        throw invalidInput(`${field.name} is required${field.hint ? `: ${field.hint.replace('{api}', `/api/${ns}`)}` : '.'}`, { violations: [{ field: field.name, message: 'required' }] });
      }
      continue;
    }
    const { value, error } = convertSetting(field, raw);
    if (error) throw invalidInput(`${field.name} ${error}.`, { violations: [{ field: field.name, message: `${field.name} ${error}` }] });
    values[field.name] = value;
  }
  return values;
}

/** A simple operation's own answer fields, from the post the network made and the field values. */
function answerOf(spec: PostOperationSpec, made: PostRef | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(spec.answer)) {
    const value = 'value' in field.from ? field.from.value : 'post' in field.from ? made?.[field.from.post] : values[field.from.field];
    if (value !== undefined || !field.optional) answer[name] = value;
  }
  return answer;
}

export function postRoutes(router: Router<AppState>, deps: ApiDeps, ns: string): void {
  const edit = async (ctx: RouterContext<AppState>, fields: Record<string, unknown>) => {
    requireOperation(deps, platformOf(fields.platform), 'edit');
    const target = targetOf(deps, fields);
    const { sent, ...changes } = changesOf(target.platform, deps.platforms.get(target.platform)?.descriptor.posts, fields);
    const edited = await editPost(deps, ctx.state.caller.account, target, changes);
    ctx.body = {
      success: true,
      platform: target.platform,
      post_id: edited.id,
      ...(edited.url ? { url: edited.url } : {}),
      updated: edited.updated ?? sent,
      ...(edited.previousId ? { previous_post_id: edited.previousId } : {}),
      ...(edited.editHistory ? { edit_history_post_ids: edited.editHistory } : {}),
      ...(edited.requestId ? { request_id: edited.requestId } : {}),
      message: edited.id !== target.postId
        ? `The ${target.platform} post was edited; its new id is ${edited.id}.`
        : `The ${target.platform} post was updated.`,
    };
  };
  const simple = (action: SimplePostOperation) => async (ctx: RouterContext<AppState>, fields: Record<string, unknown>) => {
    const spec: PostOperationSpec = POST_OPERATIONS[action];
    requireOperation(deps, platformOf(fields.platform), action);
    const target = targetOf(deps, fields);
    const values = valuesOf(spec, fields, ns);
    const done = await runPostOperation(deps, ctx.state.caller.account, target, action, spec.input(values) as PostOperationInput<typeof action>);
    ctx.body = {
      success: true, platform: target.platform, post_id: target.postId, ...answerOf(spec, done.post, values),
      ...(done.requestId ? { request_id: done.requestId } : {}),
      message: spec.done(target.platform, values),
    };
  };
  const ACTIONS: Record<string, typeof edit> = { edit };
  for (const action of SIMPLE_POST_OPERATIONS) {
    const run = simple(action);
    for (const name of [action, ...(POST_OPERATIONS[action].aliases ?? [])]) ACTIONS[name] = run;
  }

  mount(router, ops.editPost, ns, (ctx) => edit(ctx, bodyFields(ctx)));
  for (const action of SIMPLE_POST_OPERATIONS) mount(router, ops.simplePostOperations[action], ns, (ctx) => ACTIONS[action]!(ctx, bodyFields(ctx)));
  mount(router, ops.postAction, ns, async (ctx) => {
    const fields = bodyFields(ctx);
    refuseUnavailablePlatforms(fields.platform);
    const action = single(fields.action);
    const run = typeof action === 'string' ? ACTIONS[action.toLowerCase()] : undefined;
    if (!run) throw invalidInput(`action must be one of ${Object.keys(ACTIONS).join(', ')}.`, { violations: [{ field: 'action', message: 'unknown action' }] });
    const { action: _action, ...rest } = fields;
    void _action;
    await run(ctx, rest);
  });

  // Multipart `thumbnail` (or `file`) or JSON/form `thumbnail_url`; user; video_id (or post_id).
  mount(router, ops.setYoutubeThumbnail, ns, async (ctx) => {
    try {
      const fields = bodyFields(ctx);
      const target = targetOf(deps, { ...fields, platform: 'youtube' });
      const { fileFields } = await takeMedia(deps, ctx, 'text', fields);
      const url = single(fields.thumbnail_url);
      const ref = fileFields.thumbnail ?? fileFields.file
        ?? (typeof url === 'string' && url ? await deps.mediaFetcher.fetch(url, 'thumbnail_url', 'media') : undefined);
      if (!ref) throw invalidInput('Send the image as a file field "thumbnail" or as thumbnail_url.', { violations: [{ field: 'thumbnail', message: 'required' }] });
      const done = await setPostThumbnail(deps, ctx.state.caller.account, target, {
        contentType: ref.contentType, size: ref.size, bytes: () => deps.media.read(ref.id),
      });
      ctx.body = {
        success: true, platform: 'youtube', video_id: target.postId, ...(done.url ? { thumbnail_url: done.url } : {}),
        ...(done.requestId ? { request_id: done.requestId } : {}),
        message: `The thumbnail of video ${target.postId} was set.`,
      };
    } finally {
      await removeTempFiles(ctx);
    }
  });
}
