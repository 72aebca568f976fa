/**
 * One platform contract, the same for every network: each network brings a harness (its adapter
 * wired to its loopback simulator, plus the simulator helpers the suite needs), and
 * `platformContract` asserts the behaviours every adapter of the platform port must share.
 * Network-specific behaviour stays in the per-network tests next to this file.
 */
import { PlatformError, type PlatformFailure } from '../../../core/domain/errors';
import type { MediaKind, Platform } from '../../../core/domain/platforms';
import { SPEC_ENDPOINT_PLATFORMS } from '../../support/spec-endpoints';
import type {
  LookupRequest, MediaAccess, PlatformAdapter, PlatformCredentials, PublishContext, PublishOutcome, PublishPost, PublishStep, VerifiedConnection,
} from '../../../core/ports/platform';
import { postRefOf } from '../../../core/ports/platform';
import { analyticsContract, type HarnessAnalytics } from './analytics-contract';
import { noMedia } from '../../support/media-access';
import { drivePublish, type MediaFixtures } from '../../support/platform-harness';
import { postFirstComment } from '../../support/first-comment';
import { commentsContract, type HarnessComments } from './comments-contract';

/** A network's own verdict or failure, armed on its simulator, and what the adapter must make of it. */
export interface HarnessFailure {
  /** The simulator's failure mode (or a short name for a real state change, such as `real:access_token_expired`). */
  mode: string;
  /** Arms the failure on the simulator; called after `connect()` and right before the publish. */
  arm(): void;
  /** The PlatformFailure the publish must end with (partial: `until` of a restriction is checked for being in the future). */
  expect: Partial<PlatformFailure>;
  /** The kind of post to publish; default: the harness's first publishable kind (text, photo, video). */
  kind?: MediaKind;
}

/** How the network renews credentials, when the adapter has a refresher. */
export interface HarnessRefresh {
  /**
   * `after_expiry`: a refresh token (or session) renews credentials whose access token already expired.
   * `while_valid`: the access token renews itself and only while it is still valid (Meta's long-lived
   * tokens): the suite renews before expiry, and checks that an expired token cannot be renewed.
   */
  model: 'after_expiry' | 'while_valid';
  /** Makes the access token of these credentials (and possibly others of the account) expire on the simulator. */
  expireAccessToken(credentials: PlatformCredentials): void;
  /**
   * `after_expiry` only: the expired credentials still publish, so the suite does not expect their
   * publish to fail (Facebook: posts go out with page tokens, which never expire; only the user token does).
   */
  expiredCredentialsStillPublish?: true;
}

/** What the shared contract needs from one network. */
export interface PlatformHarness {
  name: Platform;
  /** Starts the simulator (small processing times) and builds the adapter against it; creates the sandbox account. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Clears the simulator's stored posts, queued failures and recorded requests (accounts and apps stay). */
  reset(): void;
  /** The adapter under test, wired to the simulator (valid after `start`). */
  readonly adapter: PlatformAdapter;
  /**
   * Connects the harness's one sandbox account through the adapter's real connect flow:
   * authorizeUrl → the simulator's approve page → exchangeCode, or credentials.verify.
   */
  connect(): Promise<VerifiedConnection>;
  /** Present exactly when the adapter has a refresher. */
  refresh?: HarnessRefresh;
  /** A valid post per endpoint of the descriptor, with the settings it needs (resolved like the core does). */
  publishable: Partial<Record<MediaKind, (fx: MediaFixtures) => PublishPost>>;
  /** How the adapter reaches media bytes; default `fx.access`. Text posts always get a media access that throws. */
  media?(fx: MediaFixtures): MediaAccess;
  /** Whether the simulator holds the published post. */
  networkHas(outcome: PublishOutcome): Promise<boolean>;
  /** How many posts the simulator holds as published (since the last reset). */
  publishedCount(): number;
  /** API requests the simulator received (since the last reset). */
  requestCount(): number;
  /** Present exactly when the adapter has comments. */
  firstComment?: { check(outcome: PublishOutcome, text: string): Promise<boolean> };
  /** Present exactly when the adapter lists comments: the comments section (comments-contract.ts). */
  comments?: HarnessComments;
  failures: HarnessFailure[];
  /**
   * How the media library section publishes and lists, when the adapter has one: defaults are
   * `connect()` and the first publishable kind. LinkedIn lists organization pages only.
   */
  library?: {
    connect?(): Promise<VerifiedConnection>;
    post?(fx: MediaFixtures): PublishPost;
    kind?: MediaKind;
    /** MediaListRequest.page. */
    page?: string;
  };
  /** What each lookup kind of the adapter answers for the sandbox account (all kinds the adapter declares). */
  lookups?: {
    connect?(): Promise<VerifiedConnection>;
    lists?: Record<string, { request?: LookupRequest; names: string[] }>;
    records?: Record<string, Record<string, unknown>>;
  };
  /**
   * Present exactly when the adapter has a post editor: the text the network shows for a post now
   * (its message, caption, commentary or description), undefined once it is gone.
   */
  postOperations?: { textOf(postId: string): string | undefined; operations: ReadonlyArray<'edit' | 'unpublish'> };
  /**
   * Shared behaviours this network is known to fail because of an adapter bug, by behaviour name
   * (see BEHAVIOURS), with the reason. Such a case runs as `it.failing`: it turns red when fixed.
   */
  knownAdapterBugs?: Partial<Record<Behaviour, string>>;
  /** Present exactly when the adapter has analytics: the simulator's own figures (analytics-contract.ts). */
  analytics?: HarnessAnalytics;
}

export const BEHAVIOURS = [
  'descriptor', 'harness', 'connect', 'refresh', 'publish', 'first_comment', 'failures', 'over_long_text', 'unsupported_kind',
  'media_library', 'lookups',
  'post_operations',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

const KIND_ORDER: readonly MediaKind[] = ['text', 'photo', 'video'];
const MAX_WAIT_MS = 20;
const SECRET_KEY = /token|jwt|secret|password/i;

function failure(err: unknown): PlatformFailure {
  if (!(err instanceof PlatformError)) throw new Error(`expected a PlatformError, got ${String(err)}`);
  return err.failure;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  let value: unknown;
  try {
    value = await p;
  } catch (err) {
    return err;
  }
  throw new Error(`expected a rejection, but it resolved to ${JSON.stringify(value)?.slice(0, 600)}`);
}

/** The adapter, with every step its publisher hands back recorded. */
function observed(adapter: PlatformAdapter, steps: PublishStep[]): PlatformAdapter {
  const publisher = adapter.publisher!;
  return {
    ...adapter,
    publisher: {
      async publish(ctx, post) {
        const step = await publisher.publish(ctx, post);
        steps.push(step);
        return step;
      },
      ...(publisher.resume ? {
        async resume(ctx, post, state) {
          const step = await publisher.resume!(ctx, post, state);
          steps.push(step);
          return step;
        },
      } : {}),
    },
  };
}

export function platformContract(h: PlatformHarness, fixtures: () => MediaFixtures): void {
  const kinds = KIND_ORDER.filter((k) => h.publishable[k]);
  const defaultKind = kinds[0];
  const bug = (behaviour: Behaviour) => h.knownAdapterBugs?.[behaviour];
  /** `it`, or `it.failing` for a behaviour listed as a known adapter bug of this network. */
  const test = (behaviour: Behaviour, title: string, fn: () => Promise<void>) => {
    const known = bug(behaviour);
    if (known) it.failing(`${title} [known adapter bug: ${known}]`, fn);
    else it(title, fn);
  };

  const ctxOf = (credentials: PlatformCredentials, kind: MediaKind): PublishContext => ({
    credentials,
    idempotencyKey: `contract:${h.name}:${kind}`,
    media: kind === 'text' ? noMedia : h.media?.(fixtures()) ?? fixtures().access,
  });
  const postOf = (kind: MediaKind): PublishPost => {
    const build = h.publishable[kind];
    if (!build) throw new Error(`the ${h.name} harness has no publishable ${kind} post`);
    return build(fixtures());
  };
  const publish = async (credentials: PlatformCredentials, kind: MediaKind, post = postOf(kind), steps: PublishStep[] = []) =>
    drivePublish(observed(h.adapter, steps), ctxOf(credentials, kind), post, { maxWaitMs: MAX_WAIT_MS });

  describe(`${h.name}: shared platform contract`, () => {
    beforeAll(() => h.start());
    afterAll(() => h.stop());
    beforeEach(() => h.reset());

    test('descriptor', 'the descriptor is consistent: id, endpoints of the spec, settings on its endpoints, limits', async () => {
      const d = h.adapter.descriptor;
      expect(d.id).toBe(h.name);
      expect(d.displayName.trim()).not.toBe('');
      expect(d.endpoints.length).toBeGreaterThan(0);
      expect(new Set(d.endpoints).size).toBe(d.endpoints.length);
      // Every endpoint the spec lists this network on is one it declares (it may declare more).
      const specEndpoints = (Object.keys(SPEC_ENDPOINT_PLATFORMS) as MediaKind[]).filter((e) => SPEC_ENDPOINT_PLATFORMS[e].includes(d.id));
      expect(d.endpoints).toEqual(expect.arrayContaining(specEndpoints));
      // What the descriptor declares about comments, edits, live metrics and pins, the adapter can do.
      expect({ declaresComments: d.comments !== undefined }).toEqual({ declaresComments: h.adapter.comments !== undefined });
      if (d.posts?.edit) expect({ edit: typeof h.adapter.postEditor?.edit }).toEqual({ edit: 'function' });
      if (d.analytics?.livePostMetrics) expect({ livePost: typeof h.adapter.analytics?.post }).toEqual({ livePost: 'function' });
      if (d.pin) expect({ pinLookup: h.adapter.lookups?.lists.includes(d.pin.lookup) }).toEqual({ pinLookup: true });
      // The connect style names the connector the adapter has.
      expect({ connect: d.connect, oauth: Boolean(h.adapter.oauth), credentials: Boolean(h.adapter.credentials) })
        .toEqual({ connect: d.connect, oauth: d.connect === 'oauth', credentials: d.connect === 'credentials' });
      expect({ publish: typeof h.adapter.publisher?.publish }).toEqual({ publish: 'function' });
      const names = d.settings.fields.map((f) => f.name);
      expect(new Set(names).size).toBe(names.length);
      for (const field of d.settings.fields) {
        expect(field.endpoints.length).toBeGreaterThan(0);
        expect({ field: field.name, endpoints: field.endpoints.filter((e) => !d.endpoints.includes(e)) }).toEqual({ field: field.name, endpoints: [] });
      }
      expect(d.limits).toEqual(expect.objectContaining({ textMaxChars: expect.any(Number) }));
      expect(Number.isInteger(d.limits.textMaxChars) && d.limits.textMaxChars! > 0).toBe(true);
      for (const media of ['video', 'photo'] as const) {
        if (d.endpoints.includes(media)) expect({ media, limits: d.limits[media] }).toEqual({ media, limits: expect.any(Object) });
      }
    });

    test('harness', 'the harness covers the adapter: a post per endpoint, refresh and first comment exactly when the adapter has them', async () => {
      // Documents (LinkedIn's /upload_document) are covered by the network's own tests.
      expect([...kinds].sort()).toEqual(h.adapter.descriptor.endpoints.filter((e) => KIND_ORDER.includes(e)).sort());
      expect(Boolean(h.refresh)).toBe(Boolean(h.adapter.refresher));
      expect(Boolean(h.firstComment)).toBe(Boolean(h.adapter.comments));
      expect({ library: Boolean(h.library), lookups: Boolean(h.lookups) }).toEqual({ library: Boolean(h.adapter.mediaLibrary), lookups: Boolean(h.adapter.lookups) });
      expect(Boolean(h.comments)).toBe(Boolean(h.adapter.comments?.list));
      expect(Boolean(h.analytics)).toBe(Boolean(h.adapter.analytics));
      const auth = h.failures.filter((f) => f.expect.kind === 'auth_expired');
      const limited = h.failures.filter((f) => f.expect.kind === 'rate_limited');
      const transient = h.failures.filter((f) => f.expect.kind === 'transient');
      expect({ auth: auth.length > 0, limited: limited.length > 0, transient: transient.length > 0 }).toEqual({ auth: true, limited: true, transient: true });
    });

    test('connect', 'connect yields a stable identity and flat string credentials', async () => {
      const first = await h.connect();
      expect(first.identity.platformUserId).toEqual(expect.any(String));
      expect(first.identity.platformUserId.trim()).not.toBe('');
      expect(first.identity).toEqual(expect.objectContaining({ handle: expect.any(String), displayName: expect.any(String), avatarUrl: expect.any(String) }));
      expect(Object.keys(first.credentials).length).toBeGreaterThan(0);
      for (const [key, value] of Object.entries(first.credentials)) expect({ key, type: typeof value }).toEqual({ key, type: 'string' });
      if (first.credentials.expires_at !== undefined) expect(Date.parse(first.credentials.expires_at)).toBeGreaterThan(Date.now());
      const second = await h.connect();
      expect(second.identity.platformUserId).toBe(first.identity.platformUserId);
    });

    if (h.refresh) {
      const refresh = h.refresh;
      if (refresh.model === 'after_expiry') {
        test('refresh', 'an expired access token is auth_expired; refresh renews the credentials, and the renewed ones publish', async () => {
          const { credentials } = await h.connect();
          refresh.expireAccessToken(credentials);
          if (!refresh.expiredCredentialsStillPublish) {
            await expect(publish(credentials, defaultKind!)).rejects.toMatchObject({ failure: expect.objectContaining({ kind: 'auth_expired' }) });
          }
          const renewed = await h.adapter.refresher!.refresh(credentials);
          for (const [key, value] of Object.entries(renewed)) expect({ key, type: typeof value }).toEqual({ key, type: 'string' });
          expect(renewed).not.toEqual(credentials);
          const { outcome } = await publish(renewed, defaultKind!);
          expect(await h.networkHas(outcome)).toBe(true);
        });
      } else {
        test('refresh', 'refresh renews a valid token into credentials that publish; an expired token cannot be renewed', async () => {
          const { credentials } = await h.connect();
          const renewed = await h.adapter.refresher!.refresh(credentials);
          for (const [key, value] of Object.entries(renewed)) expect({ key, type: typeof value }).toEqual({ key, type: 'string' });
          expect(renewed.access_token).not.toBe(credentials.access_token);
          const { outcome } = await publish(renewed, defaultKind!);
          expect(await h.networkHas(outcome)).toBe(true);

          const other = await h.connect();
          refresh.expireAccessToken(other.credentials);
          await expect(h.adapter.refresher!.refresh(other.credentials))
            .rejects.toMatchObject({ failure: expect.objectContaining({ kind: 'auth_expired' }) });
        });
      }
    }

    describe('publish', () => {
      const known = bug('publish');
      const each = known ? it.failing.each(kinds) : it.each(kinds);
      each(`a valid %s post finishes with a post id the network holds, an https url, JSON-safe wait states${known ? ` [known adapter bug: ${known}]` : ''}`, async (kind) => {
        const { credentials } = await h.connect();
        const steps: PublishStep[] = [];
        const { outcome } = await publish(credentials, kind, postOf(kind), steps);
        expect(outcome.postId).toEqual(expect.any(String));
        expect(outcome.postId.trim()).not.toBe('');
        expect(outcome.warnings).toEqual(expect.any(Array));
        for (const warning of outcome.warnings) expect(typeof warning).toBe('string');
        if (outcome.url !== undefined) {
          const url = new URL(outcome.url);
          expect(url.protocol).toBe('https:');
        }
        expect(await h.networkHas(outcome)).toBe(true);
        expect(steps.at(-1)!.kind).toBe('done');
        for (const step of steps.filter((s) => s.kind === 'wait')) {
          if (step.kind !== 'wait') continue;
          expect(Number.isFinite(step.afterMs) && step.afterMs >= 0).toBe(true);
          // The state crosses a workflow boundary: it must come back from JSON unchanged.
          expect(JSON.parse(JSON.stringify(step.state))).toEqual(step.state);
        }
      });
    });

    if (h.firstComment) {
      const firstComment = h.firstComment;
      test('first_comment', 'the first comment is posted under the published post', async () => {
        const { credentials } = await h.connect();
        const { outcome } = await publish(credentials, defaultKind!);
        const text = `First comment from the contract on ${h.name}`;
        const result = await postFirstComment(h.adapter, ctxOf(credentials, defaultKind!), { post: outcome, text });
        expect(result.commentId).toEqual(expect.any(String));
        expect(result.commentId.trim()).not.toBe('');
        expect(await firstComment.check(outcome, text)).toBe(true);
      });
    }

    describe('failures', () => {
      const cases = h.failures.map((f) => [f.mode, f.expect.kind, f] as const);
      const known = bug('failures');
      const each = known ? it.failing.each(cases) : it.each(cases);
      each(`%s → %s${known ? ` [known adapter bug: ${known}]` : ''}`, async (_mode, _kind, f) => {
        const { credentials } = await h.connect();
        f.arm();
        const err = await rejection(publish(credentials, f.kind ?? defaultKind!));
        expect(err).toBeInstanceOf(PlatformError);
        expect(err).toMatchObject({ platform: h.name, failure: expect.objectContaining(f.expect) });
        const got = failure(err);
        if (got.kind === 'restricted') expect(got.until.getTime()).toBeGreaterThan(Date.now());
        if (got.kind === 'rate_limited') expect(got.retryAfterMs).toBeGreaterThan(0);
        // Messages are shown to callers: they never carry a token or secret.
        const secrets = Object.entries(credentials).filter(([key, value]) => SECRET_KEY.test(key) && value.length >= 8).map(([, value]) => value);
        for (const secret of secrets) expect((err as Error).message).not.toContain(secret);
        expect(h.publishedCount()).toBe(0);
      });
    });

    test('over_long_text', 'a text longer than descriptor.limits.textMaxChars is refused before any request', async () => {
      const max = h.adapter.descriptor.limits.textMaxChars!;
      const kind = (['text', 'video', 'photo'] as const).find((k) => h.publishable[k])!;
      const { credentials } = await h.connect();
      // Words of ten characters, ending on a letter: max + 1 characters however a network counts them.
      const text = Array.from({ length: max + 1 }, (_, i) => (i % 10 === 9 && i !== max ? ' ' : 'x')).join('');
      const post: PublishPost = { ...postOf(kind), title: text };
      const before = h.requestCount();
      const err = await rejection(publish(credentials, kind, post));
      expect(err).toBeInstanceOf(PlatformError);
      expect(failure(err)).toEqual(expect.objectContaining({ kind: 'invalid_content' }));
      expect(h.requestCount()).toBe(before);
    });

    if (h.postOperations) {
      const ops = h.postOperations;
      const has = (op: 'edit' | 'unpublish') => ops.operations.includes(op);
      describe('post operations', () => {
        test('harness', 'the post editor has exactly the operations the harness lists', async () => {
          const editor = h.adapter.postEditor;
          expect({ edit: Boolean(editor?.edit), unpublish: Boolean(editor?.unpublish) }).toEqual({ edit: has('edit'), unpublish: has('unpublish') });
        });
        const editor = { edit: (...a: Parameters<NonNullable<NonNullable<PlatformAdapter['postEditor']>['edit']>>) => h.adapter.postEditor!.edit!(...a),
          unpublish: (...a: Parameters<NonNullable<NonNullable<PlatformAdapter['postEditor']>['unpublish']>>) => h.adapter.postEditor!.unpublish!(...a) };
        if (has('edit')) {
          test('post_operations', 'edit: the network shows the new text; omitted fields and the post stay; the answer names the post', async () => {
            const { credentials } = await h.connect();
            const { outcome } = await publish(credentials, defaultKind!);
            const text = `Edited text ${Date.now()}`;
            const before = h.publishedCount();
            const edited = await editor.edit({ credentials }, postRefOf(outcome), { text });
            expect(edited.id).toEqual(expect.any(String));
            expect(ops.textOf(edited.id)).toBe(text);
            expect(h.publishedCount()).toBeGreaterThanOrEqual(before);
            if (edited.url !== undefined) expect(edited.url).toMatch(/^https:\/\//);
          });
        }
        if (has('unpublish')) {
          test('post_operations', 'unpublish: the network no longer holds the post', async () => {
            const { credentials } = await h.connect();
            const { outcome } = await publish(credentials, defaultKind!);
            expect(await h.networkHas(outcome)).toBe(true);
            await editor.unpublish({ credentials }, postRefOf(outcome));
            expect(await h.networkHas(outcome)).toBe(false);
            expect(ops.textOf(outcome.postId)).toBeUndefined();
          });
          test('post_operations', 'after an unpublish, an edit of the post is refused with a PlatformError that is not transient', async () => {
            const { credentials } = await h.connect();
            const { outcome } = await publish(credentials, defaultKind!);
            await editor.unpublish({ credentials }, postRefOf(outcome));
            if (has('edit')) {
              const err = await rejection(editor.edit({ credentials }, postRefOf(outcome), { text: 'After the delete' }));
              expect(err).toBeInstanceOf(PlatformError);
              expect(failure(err).kind).not.toBe('transient');
            }
          });
        }
      });
    }
    if (h.comments) commentsContract(h, h.comments, async (credentials) => (await publish(credentials, defaultKind!)).outcome);
    if (h.analytics) analyticsContract(h, h.analytics, (credentials) => publish(credentials, defaultKind!));

    const unsupported = KIND_ORDER.filter((k) => !h.publishable[k]);
    if (unsupported.length) {
      test('unsupported_kind', `a post on an endpoint the network does not serve (${unsupported.join(', ')}) is refused with a PlatformError before any request`, async () => {
        const { credentials } = await h.connect();
        for (const kind of unsupported) {
          const fx = fixtures();
          const media = kind === 'text' ? [] : kind === 'photo' ? [fx.images[0]!] : [fx.video];
          const before = h.requestCount();
          const err = await rejection(publish(credentials, kind, { kind, title: `A ${kind} post`, media, settings: {} }));
          // Most adapters answer `unsupported` here; the kind is not pinned (Instagram answers invalid_content media_required).
          expect({ kind, error: err instanceof PlatformError, platform: (err as PlatformError).platform }).toEqual({ kind, error: true, platform: h.name });
          expect(h.requestCount()).toBe(before);
        }
      });
    }

    if (h.library) describe('media library', () => {
      const library = () => h.adapter.mediaLibrary;
      const libKind = () => h.library?.kind ?? defaultKind!;
      const connectLib = () => (h.library?.connect ?? h.connect)();
      const publishLib = async (credentials: PlatformCredentials) => {
        const kind = libKind();
        const post = h.library?.post?.(fixtures()) ?? postOf(kind);
        return (await publish(credentials, kind, post)).outcome;
      };
      const request = (limit: number, cursor?: string) => ({ limit, ...(cursor !== undefined ? { cursor } : {}), ...(h.library?.page ? { page: h.library.page } : {}) });

      test('media_library', 'published posts are listed newest first with the spec media item fields; cursors walk every page once', async () => {
        const lib = library()!;
        expect(lib.maxLimit).toBeGreaterThanOrEqual(1);
        expect(lib.maxLimit).toBeLessThanOrEqual(100);
        const { credentials } = await connectLib();
        const published: string[] = [];
        for (let i = 0; i < 3; i++) published.push((await publishLib(credentials)).postId);
        const first = await lib.list({ credentials }, request(lib.maxLimit));
        const ids = first.items.map((i) => i.id);
        expect(ids.slice(0, 3)).toEqual([...published].reverse());
        for (const item of first.items) {
          expect(['IMAGE', 'VIDEO', 'CAROUSEL_ALBUM', 'TEXT']).toContain(item.mediaType);
          if (item.timestamp !== undefined) expect(new Date(item.timestamp).toISOString()).toBe(item.timestamp);
          if (item.permalink !== undefined) expect(new URL(item.permalink).protocol).toBe('https:');
          if (h.name === 'tiktok' || h.name === 'youtube') expect(item.mediaUrl).toBeUndefined();
          if (item.children) expect(item.mediaType).toBe('CAROUSEL_ALBUM');
        }
        if (!lib.cursors) {
          const two = await lib.list({ credentials }, request(2));
          expect({ ids: two.items.map((i) => i.id), cursor: two.cursor }).toEqual({ ids: ids.slice(0, 2), cursor: undefined });
          return;
        }
        const walked: string[] = [];
        let cursor: string | undefined;
        for (let round = 0; round < 10; round++) {
          const page = await lib.list({ credentials }, request(1, cursor));
          expect(page.items.length).toBeLessThanOrEqual(1);
          walked.push(...page.items.map((i) => i.id));
          cursor = page.cursor;
          if (!cursor) break;
        }
        expect(walked).toEqual(ids);
        await expect(lib.list({ credentials }, request(1, 'not-a-cursor-the-network-gave'))).rejects.toBeInstanceOf(PlatformError);
      });

      if (h.refresh && !h.refresh.expiredCredentialsStillPublish) {
        const refresh = h.refresh;
        test('media_library', 'an expired token lists nothing: auth_expired', async () => {
          const { credentials } = await connectLib();
          refresh.expireAccessToken(credentials);
          await expect(library()!.list({ credentials }, request(5))).rejects.toMatchObject({ failure: expect.objectContaining({ kind: 'auth_expired' }) });
        });
      }
    });

    if (h.lookups) describe('lookups', () => {
      test('lookups', 'every lookup kind the adapter declares answers what the network holds', async () => {
        const lookups = h.adapter.lookups!;
        const lists = h.lookups?.lists ?? {};
        const records = h.lookups?.records ?? {};
        expect(Object.keys(lists).sort()).toEqual([...lookups.lists].sort());
        expect(Object.keys(records).sort()).toEqual([...(lookups.records ?? [])].sort());
        const { credentials } = await (h.lookups?.connect ?? h.connect)();
        for (const [kind, want] of Object.entries(lists)) {
          const page = await lookups.list({ credentials }, kind, want.request);
          expect({ kind, names: page.items.map((i) => i.name) }).toEqual({ kind, names: expect.arrayContaining(want.names) });
          for (const item of page.items) expect(item.id.trim()).not.toBe('');
        }
        for (const [kind, want] of Object.entries(records)) {
          expect({ kind, record: await lookups.read!({ credentials }, kind) }).toEqual({ kind, record: expect.objectContaining(want) });
        }
        await expect(lookups.list({ credentials }, 'no_such_kind')).rejects.toBeInstanceOf(PlatformError);
      });
    });
  });
}
