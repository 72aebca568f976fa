import { PlatformError, type PlatformFailure } from '../../core/domain/errors';
import type { Platform } from '../../core/domain/platforms';
import type { PlatformAdapter, TextPost } from '../../core/ports/platform';

/** An in-memory network for unit tests of the core: records posts, fails on demand. */
export function fakeTextPlatform(id: Platform, opts: { textMaxChars?: number } = {}) {
  const posts: Array<{ text: string; credentials: Record<string, string>; idempotencyKey: string }> = [];
  const failures: Array<{ failure: PlatformFailure; message: string }> = [];
  let delayMs = 0;
  const adapter: PlatformAdapter = {
    descriptor: { id, displayName: id, connect: 'credentials', endpoints: ['text'], limits: { textMaxChars: opts.textMaxChars ?? 280 } },
    credentialConnector: {
      async verify(input) {
        if (input.secret !== 'good') throw new PlatformError(id, { kind: 'auth_expired', reason: 'bad_secret' }, 'secret rejected');
        return {
          identity: { platformUserId: `${id}-user-1`, handle: `@${id}user`, displayName: `${id} user`, avatarUrl: '' },
          credentials: { secret: String(input.secret) },
        };
      },
    },
    textPublisher: {
      async publishText(ctx, post: TextPost) {
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        const failure = failures.shift();
        if (failure) throw new PlatformError(id, failure.failure, failure.message);
        posts.push({ text: post.text, credentials: ctx.credentials, idempotencyKey: ctx.idempotencyKey });
        return { postId: `${id}-post-${posts.length}`, url: `https://${id}.example/p/${posts.length}`, warnings: [] };
      },
    },
  };
  return {
    adapter,
    posts,
    failNext(failure: PlatformFailure, message = `${failure.kind} from ${id}`) { failures.push({ failure, message }); },
    setDelay(ms: number) { delayMs = ms; },
  };
}
