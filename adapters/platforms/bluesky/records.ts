/**
 * Records in the account's repo (com.atproto.repo.createRecord): app.bsky.feed.post with its
 * facets, and the threadgate / postgate records that carry reply and quote controls under the
 * post's rkey.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { PublishOutcome } from '../../../core/ports/platform';
import { str, type Json } from '../kit/http';
import type { BlueskyClient } from './client';
import type { PostPlan } from './plan';
import { rkeyOf, type Session, type StrongRef } from './session';
import { THREADGATE, type PostRef } from './settings';
import { detectFacets } from './text';

const POST = 'app.bsky.feed.post';
const POSTGATE = 'app.bsky.feed.postgate';

export interface BlueskyRecords {
  /** The strong reference of an existing post (the quoted post, the root of a first comment). */
  resolvePost(session: Session, ref: PostRef, signal?: AbortSignal): Promise<StrongRef>;
  /** One app.bsky.feed.post record: text with facets, the post's langs and labels, an embed and an optional reply. */
  postRecord(session: Session, plan: Pick<PostPlan, 'langs' | 'labels'>, text: string, embed: Json | undefined, reply: Json | undefined, signal?: AbortSignal): Promise<StrongRef>;
  /**
   * Creates the post (a thread for a gallery: 4 images per post, each replying to the previous),
   * then its gates.
   */
  createPosts(session: Session, plan: PostPlan, mediaEmbeds: Json[], quote: StrongRef | undefined, signal?: AbortSignal): Promise<PublishOutcome>;
}

export function createBlueskyRecords(client: BlueskyClient, opts: { appUrl: string }): BlueskyRecords {
  async function resolvePost(session: Session, ref: PostRef, signal?: AbortSignal): Promise<StrongRef> {
    const { status, body } = await client.xrpc(session.service, 'com.atproto.repo.getRecord', {
      method: 'GET', query: { repo: ref.repo, collection: POST, rkey: ref.rkey }, token: session.accessJwt, signal,
    });
    const uri = str(body.uri);
    const cid = str(body.cid);
    if (!uri || !cid) throw client.failure({ kind: 'malformed', status, what: 'the quoted post (uri, cid)' });
    return { uri, cid };
  }

  async function resolveHandle(session: Session, handle: string, signal?: AbortSignal): Promise<string | undefined> {
    try {
      const { body } = await client.xrpc(session.service, 'com.atproto.identity.resolveHandle', { method: 'GET', query: { handle }, token: session.accessJwt, signal });
      return str(body.did);
    } catch (err) {
      // An unknown handle stays plain text; every other failure is the call's own.
      if (err instanceof PlatformError && err.failure.kind === 'invalid_content') return undefined;
      throw err;
    }
  }

  async function createRecord(session: Session, collection: string, record: Json, signal?: AbortSignal, rkey?: string): Promise<StrongRef> {
    const { status, body } = await client.xrpc(session.service, 'com.atproto.repo.createRecord', {
      method: 'POST', token: session.accessJwt, signal,
      json: { repo: session.did, collection, ...(rkey ? { rkey } : {}), record: { $type: collection, ...record } },
    });
    const uri = str(body.uri);
    const cid = str(body.cid);
    if (!uri?.startsWith('at://') || !cid) throw client.failure({ kind: 'malformed', status, what: 'the created record (uri, cid)' });
    return { uri, cid };
  }

  const postUrl = (session: Session, uri: string) =>
    `${opts.appUrl}/profile/${session.handle === 'handle.invalid' ? session.did : session.handle}/post/${rkeyOf(uri)}`;

  async function postRecord(
    session: Session, plan: Pick<PostPlan, 'langs' | 'labels'>, text: string, embed: Json | undefined, reply: Json | undefined, signal?: AbortSignal,
  ): Promise<StrongRef> {
    const facets = await detectFacets(text, (h) => resolveHandle(session, h, signal));
    return createRecord(session, POST, {
      text,
      createdAt: client.now().toISOString(),
      ...(facets.length ? { facets } : {}),
      ...(plan.langs.length ? { langs: plan.langs } : {}),
      ...(plan.labels.length ? { labels: { $type: 'com.atproto.label.defs#selfLabels', values: plan.labels.map((val) => ({ val })) } } : {}),
      ...(embed ? { embed } : {}),
      ...(reply ? { reply } : {}),
    }, signal);
  }

  function withQuote(media: Json | undefined, quote: StrongRef | undefined): Json | undefined {
    if (!quote) return media;
    if (!media) return { $type: 'app.bsky.embed.record', record: quote };
    return { $type: 'app.bsky.embed.recordWithMedia', record: { $type: 'app.bsky.embed.record', record: quote }, media };
  }

  // Once the first post exists, later failures become warnings: failing the publish would have
  // the engine retry it and post twice.
  async function createPosts(session: Session, plan: PostPlan, mediaEmbeds: Json[], quote: StrongRef | undefined, signal?: AbortSignal): Promise<PublishOutcome> {
    const warnings = [...plan.warnings];
    const root = await postRecord(session, plan, plan.text, withQuote(mediaEmbeds[0], quote), undefined, signal);
    const thread: StrongRef[] = [root];
    for (let i = 1; i < mediaEmbeds.length; i += 1) {
      try {
        thread.push(await postRecord(session, plan, '', mediaEmbeds[i], { root, parent: thread[thread.length - 1] }, signal));
      } catch (err) {
        warnings.push(`Gallery posts ${i + 1}-${mediaEmbeds.length} of ${mediaEmbeds.length} were not posted: ${(err as Error).message}`);
        break;
      }
    }
    const createdAt = client.now().toISOString();
    if (plan.allow) {
      // A threadgate governs the whole thread from its root, under the root's rkey.
      await createRecord(session, THREADGATE, { post: root.uri, allow: plan.allow, createdAt }, signal, rkeyOf(root.uri))
        .catch((err: Error) => warnings.push(`The reply setting (bluesky_threadgate) was not applied: ${err.message}`));
    }
    if (plan.disableQuotes) {
      for (const post of thread) {
        await createRecord(session, POSTGATE, { post: post.uri, createdAt, embeddingRules: [{ $type: `${POSTGATE}#disableRule` }] }, signal, rkeyOf(post.uri))
          .catch((err: Error) => warnings.push(`Quoting was not disabled (bluesky_postgate) on ${post.uri}: ${err.message}`));
      }
    }
    return {
      postId: root.uri,
      url: postUrl(session, root.uri),
      warnings,
      extra: {
        cid: root.cid,
        ...(thread.length > 1 ? { thread: thread.map((p) => ({ uri: p.uri, cid: p.cid, url: postUrl(session, p.uri) })) } : {}),
      },
    };
  }

  return { resolvePost, postRecord, createPosts };
}
