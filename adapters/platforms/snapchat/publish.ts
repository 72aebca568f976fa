/**
 * Publishing a video to a Public Profile as a Story or a Spotlight, through Snap's upload flow
 * (Profile Asset Management): the file is encrypted with AES-256-CBC under a fresh key and iv, a
 * media container is created with them (`POST /v1/public_profiles/{p}/media`), the encrypted bytes
 * go up as multipart parts of at most 32 MB (`action=ADD`, `part_number`, `file`) to the container's
 * `add_path`, `action=FINALIZE` closes it, and the story or spotlight is created with its `media_id`.
 * The file is streamed: never more than one part is held in memory.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type PublishContext, type PublishOutcome, type PublishPost, type Publisher } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import type { SnapchatClient } from './client';
import { snapchatDescriptor } from './descriptor';

/** Snap's part limit. */
export const SNAP_PART_MAX_BYTES = 32 * 1024 * 1024;

function refuse(code: string, message: string): never {
  throw new PlatformError('snapchat', { kind: 'invalid_content', code }, message);
}

/** The first string among `paths` (dotted) of an answer: Snap's answers nest their objects differently per call. */
function pick(answer: Json, ...paths: string[]): string | undefined {
  for (const path of paths) {
    let at: unknown = answer;
    for (const key of path.split('.')) at = isObject(at) ? at[key] : Array.isArray(at) ? at[Number(key)] : undefined;
    if (typeof at === 'string' && at) return at;
  }
  return undefined;
}

export function createSnapchatPublisher(client: SnapchatClient, opts: { partBytes: number }): Publisher {
  const partBytes = Math.min(SNAP_PART_MAX_BYTES, Math.max(16, Math.floor(opts.partBytes / 16) * 16));

  function profileOf(ctx: PublishContext): string {
    const id = ctx.credentials.profile_id;
    if (!id) throw new PlatformError('snapchat', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Snapchat connection has no Public Profile id; reconnect the account.');
    return id;
  }

  /** Encrypts and uploads the file part by part; answers the finalized media id. */
  async function upload(ctx: PublishContext, post: PublishPost, profileId: string, token: string): Promise<string> {
    const video = post.media[0]!;
    const key = randomBytes(32);
    const iv = randomBytes(16);
    const created = await client.call(token, 'POST', `/v1/public_profiles/${encodeURIComponent(profileId)}/media`, {
      type: 'VIDEO', name: `herald-${(video.filename ?? video.id).slice(0, 60)}`, key: key.toString('base64'), iv: iv.toString('base64'),
    }, ctx.signal);
    const mediaId = pick(created, 'media_id', 'media.id', 'id', 'media.0.media.id');
    const addPath = pick(created, 'add_path', 'media.add_path', 'media.0.media.add_path');
    if (!mediaId || !addPath) throw client.failure({ kind: 'malformed', status: 200, what: 'a media id and add_path' });
    const finalizePath = pick(created, 'finalize_path', 'media.finalize_path', 'media.0.media.finalize_path') ?? addPath;
    const addUrl = client.onApi(addPath);
    const finalizeUrl = client.onApi(finalizePath);

    const cipher = createCipheriv('aes-256-cbc', key, iv);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let part = 0;
    const sendPart = async (bytes: Buffer) => {
      part += 1;
      const form = new FormData();
      form.append('action', 'ADD');
      form.append('part_number', String(part));
      form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), `part-${part}.enc`);
      await client.call(token, 'POST', addUrl, form, ctx.signal);
    };
    const drain = async (final: boolean) => {
      while (pendingBytes >= partBytes || (final && pendingBytes > 0)) {
        const all = Buffer.concat(pending);
        const take = Math.min(partBytes, all.length);
        pending = [all.subarray(take)];
        pendingBytes = all.length - take;
        await sendPart(all.subarray(0, take));
      }
    };
    for await (const chunk of ctx.media.read(video.id)) {
      const out = cipher.update(chunk);
      if (out.length) { pending.push(out); pendingBytes += out.length; }
      await drain(false);
    }
    const last = cipher.final();
    pending.push(last);
    pendingBytes += last.length;
    await drain(true);

    const form = new FormData();
    form.append('action', 'FINALIZE');
    await client.call(token, 'POST', finalizeUrl, form, ctx.signal);
    return mediaId;
  }

  return {
    async publish(ctx, post) {
      if (post.kind !== 'video') throw new PlatformError('snapchat', { kind: 'unsupported' }, 'Snapchat publishing takes a video (a Story or a Spotlight).');
      if (post.media.length !== 1 || post.media[0]!.kind !== 'video') refuse('media_required', 'A Snapchat post takes exactly one video.');
      const length = textLengthOf(snapchatDescriptor, post.title);
      const max = snapchatDescriptor.limits.textMaxChars!;
      if (length > max) refuse('text_too_long', `A Spotlight description is limited to ${max} characters, hashtags included; this text has ${length}.`);
      const type = (post.settings.snapchat_post_type as string | undefined) ?? 'STORY';
      const profileId = profileOf(ctx);
      const token = client.tokenOf(ctx);
      const warnings: string[] = [];
      const mediaId = await upload(ctx, post, profileId, token);
      let answer: Json;
      if (type === 'SPOTLIGHT') {
        answer = await client.call(token, 'POST', `/v1/public_profiles/${encodeURIComponent(profileId)}/spotlights`, {
          media_id: mediaId, ...(post.title.trim() ? { description: post.title } : {}), locale: post.settings.snapchat_locale ?? 'en_US',
        }, ctx.signal);
      } else {
        if (post.title.trim()) warnings.push('Snapchat Stories carry no text: the title was not sent (use snapchat_post_type SPOTLIGHT for a description).');
        answer = await client.call(token, 'POST', `/v1/public_profiles/${encodeURIComponent(profileId)}/stories`, { media_id: mediaId }, ctx.signal);
      }
      const kind = type === 'SPOTLIGHT' ? 'spotlight' : 'story';
      const postId = pick(answer, `${kind}.id`, 'id', `${kind}s.0.${kind}.id`);
      if (!postId) throw client.failure({ kind: 'malformed', status: 200, what: `the ${kind} id` });
      const outcome: PublishOutcome = { postId, warnings, extra: { snapchat_post_type: type, media_id: mediaId, profile_id: profileId } };
      const url = str(isObject(answer[kind]) ? (answer[kind] as Json).share_url : undefined);
      if (url?.startsWith('https://')) outcome.url = url;
      return { kind: 'done', outcome };
    },
  };
}
