/**
 * Publishing a Mastodon status (docs.joinmastodon.org/methods/statuses/#create): media are uploaded
 * first with POST /api/v2/media. Images usually come back processed (200); videos answer 202 with
 * `url: null` and are polled with GET /api/v1/media/:id (206 while processing, 200 when done)
 * through wait steps, never by sleeping inside a call. The status is created with the target's
 * idempotency key, so a retried create never posts twice.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type PublishContext, type PublishOutcome, type PublishPost, type Publisher, type PublishStep } from '../../../core/ports/platform';
import { collectAll, str, type Json } from '../kit/http';
import { idOf, type MastodonAccount, type MastodonClient } from './client';
import { MEDIA_MAX_COUNT, mastodonDescriptor } from './descriptor';

interface MediaState { ids: string[]; pending: string[]; startedAt: number }

const invalid = (code: string, message: string) => new PlatformError('mastodon', { kind: 'invalid_content', code }, message);

/** The connection's instance and token; a missing one means the connection must be made again. */
export function accountOf(credentials: Record<string, string>): MastodonAccount {
  const { instance_url: instance, access_token: token } = credentials;
  if (!instance || !token) {
    throw new PlatformError('mastodon', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Mastodon connection is incomplete; reconnect the account.');
  }
  return { instance, token };
}

/** The status fields of the post's settings (everything but media and poll). */
export function statusFields(text: string, settings: Record<string, unknown>): Json {
  return {
    status: text,
    visibility: settings.mastodon_visibility ?? 'public',
    ...(typeof settings.mastodon_spoiler_text === 'string' ? { spoiler_text: settings.mastodon_spoiler_text } : {}),
    ...(typeof settings.mastodon_sensitive === 'boolean' ? { sensitive: settings.mastodon_sensitive } : {}),
    ...(typeof settings.mastodon_language === 'string' ? { language: settings.mastodon_language.toLowerCase() } : {}),
  };
}

/** Checks the text as Mastodon counts it (the content warning counts too), before anything is sent. */
export function checkText(text: string, settings: Record<string, unknown>, hasMedia: boolean): void {
  const max = mastodonDescriptor.limits.textMaxChars!;
  const spoiler = typeof settings.mastodon_spoiler_text === 'string' ? settings.mastodon_spoiler_text : '';
  const length = textLengthOf(mastodonDescriptor, text) + textLengthOf(mastodonDescriptor, spoiler);
  if (!hasMedia && text.trim() === '') throw invalid('text_empty', 'Mastodon cannot post an empty status.');
  if (length > max) throw invalid('text_too_long', `Mastodon statuses are limited to ${max} characters (text and content warning, URLs counting 23); this one has ${length}.`);
}

export function createMastodonPublisher(client: MastodonClient, opts: { mediaPollMs: number; maxProcessingMs: number; now: () => Date }): Publisher {
  async function upload(ctx: PublishContext, account: MastodonAccount, post: PublishPost): Promise<MediaState> {
    const alts = (post.settings.mastodon_alt_text as string[] | undefined) ?? [];
    const ids: string[] = [];
    const pending: string[] = [];
    for (const [i, media] of post.media.entries()) {
      const bytes = await collectAll(ctx.media.read(media.id));
      const form = new FormData();
      form.append('file', new Blob([bytes], { type: media.contentType }), media.filename ?? `media-${i + 1}`);
      if (alts[i]) form.append('description', alts[i]!);
      const { status, body } = await client.call(account, 'POST', '/api/v2/media', 'the uploaded media', { form, signal: ctx.signal });
      const id = idOf(client, status, body, 'the uploaded media');
      ids.push(id);
      if (status === 202 || !str(body.url)) pending.push(id);
    }
    return { ids, pending, startedAt: opts.now().getTime() };
  }

  async function poll(ctx: PublishContext, account: MastodonAccount, state: MediaState): Promise<MediaState> {
    const pending: string[] = [];
    for (const id of state.pending) {
      // 422 on this read is the instance saying processing failed (the upload is unusable).
      const { status, body } = await client.call(account, 'GET', `/api/v1/media/${encodeURIComponent(id)}`, 'the media', { signal: ctx.signal })
        .catch((err: unknown) => {
          if (err instanceof PlatformError && err.upstream.status === 422) throw client.fail({ kind: 'media_failed', detail: err.message.replace(/^Mastodon: /, '') });
          throw err;
        });
      if (status === 206 || !str(body.url)) pending.push(id);
    }
    return { ...state, pending };
  }

  async function createStatus(ctx: PublishContext, account: MastodonAccount, post: PublishPost, mediaIds: string[]): Promise<PublishOutcome> {
    const s = post.settings;
    const options = s.mastodon_poll_options as string[] | undefined;
    const poll = options?.length ? {
      options, expires_in: s.mastodon_poll_expires_in ?? 86_400,
      ...(s.mastodon_poll_multiple === true ? { multiple: true } : {}),
      ...(s.mastodon_poll_hide_totals === true ? { hide_totals: true } : {}),
    } : undefined;
    const { status, body } = await client.call(account, 'POST', '/api/v1/statuses', 'the created status', {
      json: { ...statusFields(post.title, s), ...(mediaIds.length ? { media_ids: mediaIds } : {}), ...(poll ? { poll } : {}) },
      idempotencyKey: ctx.idempotencyKey, signal: ctx.signal,
    });
    const id = idOf(client, status, body, 'the created status');
    const url = str(body.url);
    return { postId: id, ...(url ? { url } : {}), warnings: [], extra: { instance_url: account.instance } };
  }

  function next(state: MediaState): PublishStep | undefined {
    if (!state.pending.length) return undefined;
    const waited = opts.now().getTime() - state.startedAt;
    if (waited > opts.maxProcessingMs) {
      throw client.fail({ kind: 'media_failed', detail: `the instance was still processing it after ${Math.round(waited / 1000)} s` });
    }
    return { kind: 'wait', afterMs: opts.mediaPollMs, state: state as unknown as Record<string, unknown> };
  }

  return {
    async publish(ctx, post) {
      if (post.kind === 'text' && post.media.length) throw new PlatformError('mastodon', { kind: 'unsupported' }, 'Mastodon text posts carry no media.');
      if (post.kind !== 'text' && !post.media.length) throw invalid('media_required', `A Mastodon ${post.kind} post needs media.`);
      if (post.media.length > MEDIA_MAX_COUNT) throw invalid('too_many_media', `Mastodon takes at most ${MEDIA_MAX_COUNT} media per status; this post has ${post.media.length}.`);
      if (post.kind === 'video' && post.media.length !== 1) throw invalid('too_many_media', 'A Mastodon status carries one video.');
      checkText(post.title, post.settings, post.media.length > 0);
      const account = accountOf(ctx.credentials);
      if (!post.media.length) return { kind: 'done', outcome: await createStatus(ctx, account, post, []) };
      const state = await upload(ctx, account, post);
      return next(state) ?? { kind: 'done', outcome: await createStatus(ctx, account, post, state.ids) };
    },
    async resume(ctx, post, raw) {
      const account = accountOf(ctx.credentials);
      const state = await poll(ctx, account, raw as unknown as MediaState);
      return next(state) ?? { kind: 'done', outcome: await createStatus(ctx, account, post, state.ids) };
    },
  };
}
