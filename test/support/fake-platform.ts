import { PlatformError, type PlatformFailure } from '../../core/domain/errors';
import type { Platform } from '../../core/domain/platforms';
import { NO_SETTINGS, type SettingsSchema } from '../../core/domain/settings';
import type { PlatformAdapter, PlatformCredentials, PlatformLimits, PlatformRules, PublishContext, PublishPost } from '../../core/ports/platform';
import type { MediaKind } from '../../core/domain/platforms';
import { NETWORKS } from '../../adapters/platforms';

const rulesOf = (id: Platform, rules?: PlatformRules): PlatformRules | undefined =>
  rules ?? NETWORKS.find((n) => n.id === id)?.descriptor.rules;

/**
 * An in-memory network for unit tests of the core: records posts, fails on demand, can ask for
 * processing waits, refreshes tokens and takes first comments.
 */
export function fakeTextPlatform(id: Platform, opts: { textMaxChars?: number; endpoints?: MediaKind[]; settings?: SettingsSchema; limits?: PlatformLimits; rules?: PlatformRules } = {}) {
  const posts: Array<{ text: string; credentials: PlatformCredentials; idempotencyKey: string; post: PublishPost }> = [];
  const comments: Array<{ postId: string; text: string }> = [];
  const failures: Array<{ failure: PlatformFailure; message: string; resultFields?: Record<string, unknown> }> = [];
  const refreshes: PlatformCredentials[] = [];
  let delayMs = 0;
  let held: Promise<void> | null = null;
  let processingSteps = 0;
  let refreshFails = false;
  let calls = 0;
  const publishNow = async (ctx: PublishContext, post: PublishPost) => {
    calls += 1;
    if (held) await held;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    const failure = failures.shift();
    if (failure) throw new PlatformError(id, failure.failure, failure.message, {}, failure.resultFields);
    posts.push({ text: post.title, credentials: ctx.credentials, idempotencyKey: ctx.idempotencyKey, post });
    return { postId: `${id}-post-${posts.length}`, url: `https://${id}.example/p/${posts.length}`, warnings: [] };
  };
  const rules = rulesOf(id, opts.rules);
  const adapter: PlatformAdapter = {
    descriptor: {
      id, displayName: id, connect: 'credentials', endpoints: opts.endpoints ?? ['text'],
      limits: { textMaxChars: opts.textMaxChars ?? 280, ...opts.limits }, settings: opts.settings ?? NO_SETTINGS,
      // A fake named after a real network follows that network's rules (caps, plans, …) unless told otherwise.
      ...(rules ? { rules } : {}),
    },
    credentials: {
      async verify(input) {
        if (input.secret !== 'good') throw new PlatformError(id, { kind: 'auth_expired', reason: 'bad_secret' }, 'secret rejected');
        return {
          identity: { platformUserId: `${id}-user-1`, handle: `@${id}user`, displayName: `${id} user`, avatarUrl: '' },
          credentials: { secret: String(input.secret), ...(input.expires_at ? { expires_at: String(input.expires_at) } : {}) },
        };
      },
    },
    refresher: {
      async refresh(credentials) {
        refreshes.push(credentials);
        if (refreshFails) throw new PlatformError(id, { kind: 'auth_expired', reason: 'refresh_refused' }, 'refresh token revoked');
        return { ...credentials, secret: `refreshed-${refreshes.length}`, expires_at: '2099-01-01T00:00:00.000Z' };
      },
    },
    publisher: {
      async publish(ctx, post) {
        if (processingSteps > 0) return { kind: 'wait', afterMs: 10, state: { left: processingSteps } };
        return { kind: 'done', outcome: await publishNow(ctx, post) };
      },
      async resume(ctx, post, state) {
        const left = Number(state.left) - 1;
        if (left > 0) return { kind: 'wait', afterMs: 10, state: { left } };
        return { kind: 'done', outcome: await publishNow(ctx, post) };
      },
    },
    comments: {
      async create(_ctx, input) {
        if (input.text === 'fail') throw new Error('comments are closed');
        comments.push({ postId: input.post.id, text: input.text });
        return { comment: { id: `c-${comments.length}`, post: input.post } };
      },
    },
  };
  return {
    adapter,
    posts,
    comments,
    refreshes,
    failNext(failure: PlatformFailure, message = `${failure.kind} from ${id}`, resultFields?: Record<string, unknown>) { failures.push({ failure, message, ...(resultFields ? { resultFields } : {}) }); },
    setDelay(ms: number) { delayMs = ms; },
    /** Publish calls that reached the network (held ones included). */
    get calls() { return calls; },
    /**
     * Holds every publish until the returned function is called: the test, not the clock, decides
     * when the network answers, so nothing depends on how fast the machine is.
     */
    hold(): () => void {
      let release!: () => void;
      held = new Promise<void>((resolve) => { release = resolve; });
      return () => { held = null; release(); };
    },
    setProcessingSteps(n: number) { processingSteps = n; },
    setRefreshFails(v: boolean) { refreshFails = v; },
  };
}
