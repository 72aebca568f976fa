/**
 * The comments section of the shared platform contract (shared-contract.ts): every network whose
 * adapter lists comments is checked, against its simulator, for what the spec's comment table says
 * it does (core/domain/comments.ts): listing with cursors, comments from other users seeded on the
 * simulator, creating, deleting, every moderation action and its inverse, own posts only, and an
 * expired token.
 */
import { NETWORKS } from '../../../adapters/platforms';
import { PlatformError } from '../../../core/domain/errors';
import {
  postRefOf, type CallContext, type CommentAction, type Comments, type PlatformCredentials, type PostRef, type PublishOutcome,
} from '../../../core/ports/platform';
import type { PlatformHarness } from './shared-contract';

/** What the simulator holds about one comment. */
export interface SimCommentState {
  text: string;
  hidden?: boolean;
  liked?: boolean;
  pinned?: boolean;
  moderation?: string;
}

/** What the comments section needs from a network's harness. */
export interface HarnessComments {
  /** A comment by another user under the post, through the simulator's seeding control; its id. */
  seed(outcome: PublishOutcome, text: string, parentId?: string): string;
  /** The simulator's view of a comment; undefined once it is gone. */
  state(commentId: string): SimCommentState | undefined;
  /** The post as comment calls address it (default: the publish outcome's ref). */
  post?(outcome: PublishOutcome): PostRef;
  /** Whether the post takes comments (Instagram enable_comments / disable_comments). */
  postCommentsEnabled?(outcome: PublishOutcome): boolean;
  /** A published post of another account, with credentials of this one to try it with. */
  foreignPost?(): Promise<PostRef>;
  /** Comments created through the adapter show up in listings only after a while (TikTok): the listing case seeds only. */
  listingLags?: boolean;
  /** Publishes the post comments go under, when the network's comments need a particular one (LinkedIn: an organization post). */
  publish?(credentials: PlatformCredentials): Promise<PublishOutcome>;
  /** The listing leaves out the account's own comments (X lists mentions). */
  ownCommentsUnlisted?: boolean;
  /** The smallest page the network serves (X's mentions: 5); default 2. */
  pageSize?: number;
  /** Makes the account's credentials unusable where an expired access token still works (Facebook page tokens never expire). */
  revoke?(): void;
}

type Publish = (credentials: PlatformCredentials) => Promise<PublishOutcome>;

/** The state an action leaves a comment in. */
const AFTER: Partial<Record<CommentAction, (s: SimCommentState) => boolean>> = {
  hide: (s) => s.hidden === true,
  unhide: (s) => s.hidden === false,
  like: (s) => s.liked === true,
  unlike: (s) => s.liked === false,
  pin: (s) => s.pinned === true,
  unpin: (s) => s.pinned === false,
  hold: (s) => s.moderation === 'held',
  approve: (s) => s.moderation === 'published',
  ignore: (s) => s.moderation === 'ignored',
};

export function commentsContract(h: PlatformHarness, hc: HarnessComments, publishDefault: Publish): void {
  const publish: Publish = (credentials) => (hc.publish ? hc.publish(credentials) : publishDefault(credentials));
  // Read when the suite is declared, before the harness builds its adapter: the network's own descriptor.
  const rules = NETWORKS.find((n) => n.id === h.name)?.descriptor.comments;
  if (!rules) throw new Error(`${h.name} declares no comment rules (descriptor.comments), but its harness has comments`);
  const comments = (): Comments => h.adapter.comments!;
  const ctx = (credentials: PlatformCredentials): CallContext => ({ credentials });
  const postOf = (o: PublishOutcome) => hc.post?.(o) ?? postRefOf(o);

  describe(`${h.name}: comments`, () => {
    it('lists the comments of other users under the post, with cursors across pages', async () => {
      const { credentials } = await h.connect();
      const outcome = await publish(credentials);
      const size = hc.pageSize ?? 2;
      const ids = Array.from({ length: size + 1 }, (_, i) => hc.seed(outcome, i === 0 ? 'first from a fan' : `fan comment ${i + 1}`));
      const post = postOf(outcome);
      const all = await comments().list!(ctx(credentials), post, { limit: 100 });
      expect(all.items.map((c) => c.ref.id)).toEqual(expect.arrayContaining(ids));
      const first = all.items.find((c) => c.ref.id === ids[0])!;
      // X keeps the leading @mention of a reply in its text.
      expect(first).toMatchObject({ text: expect.stringContaining('first from a fan'), authorName: expect.any(String) });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await comments().list!(ctx(credentials), post, { limit: size, ...(cursor ? { cursor } : {}) });
        expect(page.items.length).toBeLessThanOrEqual(size);
        seen.push(...page.items.map((c) => c.ref.id));
        cursor = page.cursor;
        pages += 1;
      } while (cursor && pages < 10);
      expect(pages).toBeGreaterThan(1);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining(ids));
    });

    it(`creates a comment the way the network does (${rules.create})`, async () => {
      const { credentials } = await h.connect();
      const outcome = await publish(credentials);
      const post = postOf(outcome);
      const parent = hc.seed(outcome, 'a question from a fan');
      const replyTo = rules.create === 'reply_only' || rules.listReplies ? { id: parent, post } : undefined;
      const created = await comments().create(ctx(credentials), { post, text: 'Thanks for asking!', ...(replyTo ? { replyTo } : {}) });
      expect(created.comment?.id).toEqual(expect.any(String));
      expect(hc.state(created.comment!.id)).toMatchObject({ text: 'Thanks for asking!' });
      if (!hc.listingLags && !hc.ownCommentsUnlisted) {
        const listed = await comments().list!(ctx(credentials), post, { limit: 100, ...(replyTo && rules.listReplies ? { parent: replyTo } : {}) });
        expect(listed.items.map((c) => c.ref.id)).toContain(created.comment!.id);
      }
    });

    if (rules.operations.includes('delete')) {
      it('deletes a comment the account wrote', async () => {
        const { credentials } = await h.connect();
        const outcome = await publish(credentials);
        const post = postOf(outcome);
        const parent = rules.create === 'any_target' ? undefined : hc.seed(outcome, 'a fan says hi');
        const created = await comments().create(ctx(credentials), { post, text: 'To be deleted', ...(parent ? { replyTo: { id: parent, post } } : {}) });
        await comments().remove!(ctx(credentials), { ...created.comment!, post });
        expect(hc.state(created.comment!.id)).toBeUndefined();
      });
    }

    const commentActions = rules.actions.filter((a) => !rules.postActions?.includes(a) && a !== 'edit');
    if (commentActions.length) {
      it(`moderates another user's comment with every action and its inverse (${commentActions.join(', ')})`, async () => {
        const { credentials } = await h.connect();
        const outcome = await publish(credentials);
        const post = postOf(outcome);
        const id = hc.seed(outcome, 'moderate me');
        for (const action of commentActions) {
          await comments().act!(ctx(credentials), { action, comment: { id, post }, post });
          const state = hc.state(id);
          expect({ action, ok: state !== undefined && AFTER[action]!(state) }).toEqual({ action, ok: true });
        }
      });
    }
    if (rules.actions.includes('pin')) {
      it('pinning is exclusive: a second pin moves the pin', async () => {
        const { credentials } = await h.connect();
        const outcome = await publish(credentials);
        const post = postOf(outcome);
        const [a, b] = [hc.seed(outcome, 'pin me'), hc.seed(outcome, 'no, pin me')];
        await comments().act!(ctx(credentials), { action: 'pin', comment: { id: a, post }, post });
        await comments().act!(ctx(credentials), { action: 'pin', comment: { id: b, post }, post });
        expect([hc.state(a)?.pinned, hc.state(b)?.pinned]).toEqual([false, true]);
      });
    }

    if (rules.actions.includes('edit')) {
      it('edits a comment the account wrote', async () => {
        const { credentials } = await h.connect();
        const outcome = await publish(credentials);
        const post = postOf(outcome);
        const created = await comments().create(ctx(credentials), { post, text: 'Typo hre' });
        await comments().act!(ctx(credentials), { action: 'edit', comment: { ...created.comment!, post }, message: 'Typo here' });
        expect(hc.state(created.comment!.id)).toMatchObject({ text: 'Typo here' });
      });
    }

    if (rules.postActions?.length && hc.postCommentsEnabled) {
      it(`turns comments off and on for the post (${rules.postActions.join(', ')})`, async () => {
        const { credentials } = await h.connect();
        const outcome = await publish(credentials);
        for (const action of rules.postActions!) {
          await comments().act!(ctx(credentials), { action, post: postOf(outcome) });
          expect({ action, enabled: hc.postCommentsEnabled!(outcome) }).toEqual({ action, enabled: action === 'enable_comments' });
        }
      });
    }

    if (hc.foreignPost) {
      it('refuses to read the comments of a post of another account (own posts only)', async () => {
        const { credentials } = await h.connect();
        const foreign = await hc.foreignPost!();
        const err = await comments().list!(ctx(credentials), foreign, {}).then(() => undefined, (e: unknown) => e);
        expect(err).toBeInstanceOf(PlatformError);
        expect((err as PlatformError).failure).toEqual({ kind: 'rejected', code: expect.stringMatching(/^(not_owner|permission_denied|permission|not_authorized_for_resource)$/) });
      });
    }

    if (h.refresh || hc.revoke) {
      it('an expired or revoked token is auth_expired', async () => {
        const { credentials } = await h.connect();
        const outcome = await publish(credentials);
        if (hc.revoke) hc.revoke();
        else h.refresh!.expireAccessToken(credentials);
        const err = await comments().list!(ctx(credentials), postOf(outcome), {}).then(() => undefined, (e: unknown) => e);
        expect(err).toBeInstanceOf(PlatformError);
        expect((err as PlatformError).failure.kind).toBe('auth_expired');
      });
    }
  });
}
