/** Removing a published Nostr post: a kind 5 deletion request (NIP-09) sent to the connection's relays. */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor } from '../../../core/ports/platform';
import { finalizeEvent } from 'nostr-tools';
import { accepted, broadcast, mapNostrFailure } from './client';
import { accountOf, type NostrPublishOptions } from './publish';
import type { RelayIO } from './relay';

/** NIP-09: a kind 5 event naming the post (and the article's address), sent to the connection's relays. */
export function createNostrPostEditor(io: RelayIO, opts: NostrPublishOptions): PostEditor {
  return {
    async unpublish(ctx, post) {
      if (!/^[0-9a-f]{64}$/.test(post.id)) throw new PlatformError('nostr', { kind: 'invalid_content', code: 'post_not_found' }, `${post.id} is not a Nostr event id.`);
      const account = accountOf(ctx);
      const kind = typeof post.extra?.kind === 'number' ? post.extra.kind : 1;
      const d = typeof post.extra?.d === 'string' ? post.extra.d : undefined;
      const deletion = finalizeEvent({
        kind: 5, created_at: Math.floor(opts.now().getTime() / 1000), content: 'Deleted by its author',
        tags: [['e', post.id], ...(kind === 30023 && d ? [['a', `30023:${account.pubkey}:${d}`]] : []), ['k', String(kind)]],
      }, account.secret);
      const outcomes = await broadcast(io, account.relays, deletion, opts.relayTimeoutMs, ctx.signal);
      if (!outcomes.some(accepted)) throw mapNostrFailure(outcomes, { timeoutMs: opts.relayTimeoutMs, now: opts.now() });
    },
  };
}
