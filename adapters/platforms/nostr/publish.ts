/**
 * Publishing a Nostr note: a kind 1 text note (NIP-01), or a kind 30023 long-form article (NIP-23)
 * with a `d` tag, signed with the connection's key (nostr-tools) and sent to every relay of the
 * connection. Media go by URL with `imeta` tags (NIP-92). Removal is posts.ts.
 */
import { createHash } from 'node:crypto';
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type CallContext, type PublishOutcome, type Publisher, type PublishPost } from '../../../core/ports/platform';
import { finalizeEvent, nip19, type EventTemplate } from 'nostr-tools';
import { accepted, broadcast, describeOutcome, mapNostrFailure } from './client';
import { NOTE_MAX_CHARS, nostrDescriptor } from './descriptor';
import type { RelayIO } from './relay';

const MIME: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif',
  mp4: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', m3u8: 'application/x-mpegURL',
};

interface Account { secret: Uint8Array; pubkey: string; relays: string[] }

export function accountOf(ctx: CallContext): Account {
  const { private_key: key, public_key: pubkey, relays } = ctx.credentials;
  if (!key || !/^[0-9a-f]{64}$/.test(key) || !pubkey || !relays) {
    throw new PlatformError('nostr', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Nostr connection is incomplete; reconnect the account.');
  }
  return { secret: Uint8Array.from(Buffer.from(key, 'hex')), pubkey, relays: relays.split(',').filter(Boolean) };
}

/** An imeta tag: url plus the media type when the URL's extension tells it, and alt text. */
function imeta(url: string, alt: string | undefined): string[] {
  const ext = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  const mime = ext ? MIME[ext] : undefined;
  return ['imeta', `url ${url}`, ...(mime ? [`m ${mime}`] : []), `alt ${alt?.trim() || 'Attached media'}`];
}

/** The event of a post, unsigned: a note, or an article when asked for or when the text is long. */
export function eventOf(post: PublishPost, nowSeconds: number, idempotencyKey: string): EventTemplate {
  const s = post.settings;
  const urls = Array.isArray(s.nostr_media_urls) ? s.nostr_media_urls as string[] : [];
  const alts = Array.isArray(s.nostr_alt_text) ? s.nostr_alt_text as string[] : [];
  const tags: string[][] = [
    ...urls.map((u, i) => imeta(u, alts[i])),
    ...(Array.isArray(s.nostr_hashtags) ? (s.nostr_hashtags as string[]).map((t) => ['t', t.toLowerCase()]) : []),
    ...(typeof s.nostr_content_warning === 'string' ? [['content-warning', s.nostr_content_warning]] : []),
  ];
  const text = post.title;
  const longForm = s.nostr_long_form === true || [...text].length > NOTE_MAX_CHARS;
  const content = urls.length ? `${text}\n\n${urls.join('\n')}` : text;
  if (!longForm) return { kind: 1, created_at: nowSeconds, tags, content };
  const title = typeof s.nostr_article_title === 'string' ? s.nostr_article_title : (text.split('\n').find((l) => l.trim()) ?? '').replace(/^#+\s*/, '').slice(0, 300);
  // The d tag names the article: stable per post, so a retry replaces instead of duplicating it.
  const d = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 16);
  return {
    kind: 30023, created_at: nowSeconds, content,
    tags: [['d', d], ['title', title], ['published_at', String(nowSeconds)], ...(typeof s.nostr_summary === 'string' ? [['summary', s.nostr_summary]] : []), ...tags],
  };
}

export interface NostrPublishOptions { relayTimeoutMs: number; webUrl: string; now: () => Date }

export function createNostrPublisher(io: RelayIO, opts: NostrPublishOptions): Publisher {
  return {
    async publish(ctx, post) {
      if (post.kind !== 'text' || post.media.length) throw new PlatformError('nostr', { kind: 'unsupported' }, 'Nostr takes text posts; attach media by URL with nostr_media_urls.');
      const max = nostrDescriptor.limits.textMaxChars!;
      const length = textLengthOf(nostrDescriptor, post.title);
      if (post.title.trim() === '') throw new PlatformError('nostr', { kind: 'invalid_content', code: 'text_empty' }, 'A Nostr note needs text.');
      if (length > max) throw new PlatformError('nostr', { kind: 'invalid_content', code: 'text_too_long' }, `Nostr posts are limited to ${max} characters here (relays cap event sizes); this text has ${length}.`);
      const account = accountOf(ctx);
      const event = finalizeEvent(eventOf(post, Math.floor(opts.now().getTime() / 1000), ctx.idempotencyKey), account.secret);
      const outcomes = await broadcast(io, account.relays, event, opts.relayTimeoutMs, ctx.signal);
      if (!outcomes.some(accepted)) throw mapNostrFailure(outcomes, { timeoutMs: opts.relayTimeoutMs, now: opts.now() });
      const d = event.tags.find((t) => t[0] === 'd')?.[1];
      const pointer = event.kind === 30023 && d
        ? nip19.naddrEncode({ kind: 30023, pubkey: account.pubkey, identifier: d, relays: account.relays.slice(0, 2) })
        : nip19.neventEncode({ id: event.id, author: account.pubkey, kind: event.kind, relays: account.relays.slice(0, 2) });
      const outcome: PublishOutcome = {
        postId: event.id,
        url: `${opts.webUrl.replace(/\/+$/, '')}/${pointer}`,
        warnings: outcomes.filter((o) => !accepted(o)).map((o) => `Not on every relay: ${describeOutcome(o)}.`),
        extra: {
          kind: event.kind, pubkey: account.pubkey, ...(d ? { d } : {}), [event.kind === 30023 ? 'naddr' : 'nevent']: pointer,
          relays: outcomes.map((o) => ({ relay: o.relay, accepted: accepted(o), ...(o.kind === 'ok' ? { message: o.message } : { error: o.reason }) })),
        },
      };
      return { kind: 'done', outcome };
    },
  };
}
