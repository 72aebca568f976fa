/**
 * Published-post operations of the LinkedIn simulator (community-management/shares/posts-api:
 * "Update Posts", "Delete Posts", reshares): `POST /rest/posts/{urn}` with
 * `X-RestLi-Method: PARTIAL_UPDATE` and `{patch: {$set: {...}}}` (204), `DELETE /rest/posts/{urn}`
 * (204, and again 204 for a post already gone, as LinkedIn's delete is idempotent), and a reshare:
 * `POST /rest/posts` with `reshareContext.parent` (refused when the author disabled reshares).
 * Only the author (or a page admin acting as the page) may change or delete a post.
 */
import type { ServerResponse } from 'node:http';
import type { SimRequest } from '../kit/http';
import { accessDenied, badRequest, invalidField, notFound, restError } from './answers';
import { jsonBody, mayActAs } from './requests';
import { COMMENTARY_MAX, VISIBILITIES, type LinkedInState, type TokenRecord } from './state';
import { codePoints, isObj, renderLittleText } from './text';

/** Fields LinkedIn lets a partial update set (the spec's visibility and reshare switch included). */
const UPDATABLE = ['commentary', 'visibility', 'isReshareDisabledByAuthor', 'lifecycleState', 'contentCallToActionLabel', 'contentLandingPage'];

export function createLinkedInPosts(s: LinkedInState) {
  const deleted = new Set<string>();

  function updatePost(req: SimRequest, res: ServerResponse, token: TokenRecord, urn: string, version: string) {
    if (String(req.headers['x-restli-method'] ?? '').toUpperCase() !== 'PARTIAL_UPDATE') {
      return badRequest(res, 'Updating a post needs the X-RestLi-Method: PARTIAL_UPDATE header');
    }
    const post = s.posts.find((p) => p.id === urn);
    if (!post) return notFound(res, `Post ${urn}`);
    if (!mayActAs(s, token, post.author)) return accessDenied(res, 'partnerApiPostsExternal.PARTIAL_UPDATE', version);
    const body = jsonBody(req, res);
    if (!body) return;
    const set = isObj(body.patch) ? body.patch.$set : undefined;
    if (!isObj(set) || !Object.keys(set).length) return invalidField(res, '/patch/$set', 'a partial update needs at least one field in patch.$set');
    const unknown = Object.keys(set).find((k) => !UPDATABLE.includes(k));
    if (unknown) return invalidField(res, `/patch/$set/${unknown}`, 'field cannot be updated');
    if (set.commentary !== undefined) {
      if (typeof set.commentary !== 'string') return invalidField(res, '/patch/$set/commentary', 'must be a string');
      const rendered = renderLittleText(set.commentary);
      if (codePoints(rendered.text) > COMMENTARY_MAX) return invalidField(res, '/patch/$set/commentary', `length must be at most ${COMMENTARY_MAX}`);
      if (!post.content && !rendered.text.trim()) return invalidField(res, '/patch/$set/commentary', 'a post needs commentary or content');
    }
    if (set.visibility !== undefined && (typeof set.visibility !== 'string' || !VISIBILITIES.includes(set.visibility))) {
      return invalidField(res, '/patch/$set/visibility', `must be one of ${VISIBILITIES.join(', ')}`);
    }
    if (set.isReshareDisabledByAuthor !== undefined && typeof set.isReshareDisabledByAuthor !== 'boolean') {
      return invalidField(res, '/patch/$set/isReshareDisabledByAuthor', 'must be a boolean');
    }
    if (set.lifecycleState !== undefined && set.lifecycleState !== 'PUBLISHED') return invalidField(res, '/patch/$set/lifecycleState', 'a published post can only stay PUBLISHED');
    if (typeof set.commentary === 'string') {
      const rendered = renderLittleText(set.commentary);
      post.commentary = set.commentary;
      post.text = rendered.text;
      post.truncated = rendered.truncated;
    }
    if (typeof set.visibility === 'string') post.visibility = set.visibility;
    if (typeof set.isReshareDisabledByAuthor === 'boolean') post.isReshareDisabledByAuthor = set.isReshareDisabledByAuthor;
    post.lastModifiedAt = Date.now();
    res.writeHead(204, { 'content-length': 0 });
    res.end();
  }

  function deletePost(res: ServerResponse, token: TokenRecord, urn: string, version: string) {
    const post = s.posts.find((p) => p.id === urn);
    if (!post) {
      if (deleted.has(urn)) {
        res.writeHead(204, { 'content-length': 0 });
        return res.end();
      }
      return notFound(res, `Post ${urn}`);
    }
    if (!mayActAs(s, token, post.author)) return accessDenied(res, 'partnerApiPostsExternal.DELETE', version);
    s.posts.splice(s.posts.indexOf(post), 1);
    deleted.add(urn);
    res.writeHead(204, { 'content-length': 0 });
    res.end();
  }

  /** `POST /rest/posts` with reshareContext: answers and returns true when the body is a reshare. */
  function reshare(res: ServerResponse, token: TokenRecord, body: Record<string, unknown>, version: string): boolean {
    if (body.reshareContext === undefined) return false;
    const { author, commentary, visibility, reshareContext, content, lifecycleState } = body;
    const parentUrn = isObj(reshareContext) ? reshareContext.parent : undefined;
    if (typeof author !== 'string') return invalidField(res, '/author', 'field is required but not found'), true;
    if (!mayActAs(s, token, author)) return accessDenied(res, 'partnerApiPostsExternal.CREATE', version), true;
    if (content !== undefined) return invalidField(res, '/content', 'a reshare carries no content of its own'), true;
    if (typeof parentUrn !== 'string') return invalidField(res, '/reshareContext/parent', 'field is required but not found'), true;
    if (typeof visibility !== 'string' || !VISIBILITIES.includes(visibility)) return invalidField(res, '/visibility', `must be one of ${VISIBILITIES.join(', ')}`), true;
    if (lifecycleState !== 'PUBLISHED') return invalidField(res, '/lifecycleState', 'must be PUBLISHED'), true;
    const parent = s.posts.find((p) => p.id === parentUrn);
    if (!parent) return notFound(res, `Post ${parentUrn}`), true;
    if (parent.isReshareDisabledByAuthor) return restError(res, 403, 'RESHARE_DISABLED', `The author of ${parentUrn} disabled resharing`), true;
    const raw = typeof commentary === 'string' ? commentary : '';
    const rendered = renderLittleText(raw);
    if (codePoints(rendered.text) > COMMENTARY_MAX) return invalidField(res, '/commentary', `length must be at most ${COMMENTARY_MAX}`), true;
    const id = `urn:li:share:${s.liveId()}`;
    s.posts.push({
      id, author, commentary: raw, text: rendered.text, truncated: rendered.truncated, visibility, distribution: body.distribution,
      lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: false, createdAt: Date.now(), reshareOf: parentUrn,
    });
    res.writeHead(201, { 'x-restli-id': id, 'x-linkedin-id': id, 'content-length': 0 });
    res.end();
    return true;
  }

  return { updatePost, deletePost, reshare };
}
