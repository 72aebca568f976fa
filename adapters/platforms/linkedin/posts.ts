/**
 * Changes to a published LinkedIn post (community-management/shares/posts-api: "Update Posts",
 * "Delete Posts", reshares). An edit is a Rest.li partial update, `POST /rest/posts/{urn}` with
 * `X-RestLi-Method: PARTIAL_UPDATE` and `{patch: {$set: {…}}}`: commentary (little text, escaped as
 * on publish), and the spec's `linkedin_visibility` and `linkedin_disable_reshare` as `visibility`
 * and `isReshareDisabledByAuthor` (LinkedIn's docs name commentary as the editable field: when it
 * refuses the other two, its answer is passed on). Delete is `DELETE /rest/posts/{urn}`; a reshare is
 * a new post with `reshareContext.parent`, as the member.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type CallContext, type PostEditor } from '../../../core/ports/platform';
import type { LinkedInClient } from './client';
import { linkedinDescriptor } from './descriptor';
import { escapeLittleText } from './text';

const POST_URN = /^urn:li:(share|ugcPost):\d+$/;
const urlOf = (urn: string) => `https://www.linkedin.com/feed/update/${urn}`;

export function createLinkedInPostEditor(client: LinkedInClient): PostEditor {
  const tokenOf = (ctx: CallContext) => {
    const token = ctx.credentials.access_token;
    if (!token) throw new PlatformError('linkedin', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored LinkedIn credentials are incomplete; reconnect the account.');
    return token;
  };
  const urnOf = (id: string) => {
    if (!POST_URN.test(id)) throw new PlatformError('linkedin', { kind: 'invalid_content', code: 'invalid_post_id' }, 'A LinkedIn post id is its URN: urn:li:share:<n> or urn:li:ugcPost:<n>.');
    return id;
  };
  return {
    async edit(ctx, post, changes) {
      const urn = urnOf(post.id);
      const settings = changes.settings ?? {};
      const set: Record<string, unknown> = {};
      const updated: string[] = [];
      const text = changes.text;
      if (text !== undefined) {
        const max = linkedinDescriptor.limits.textMaxChars!;
        const length = textLengthOf(linkedinDescriptor, text);
        if (length > max) throw new PlatformError('linkedin', { kind: 'invalid_content', code: 'text_too_long' }, `LinkedIn commentary is limited to ${max} characters; this text has ${length}.`);
        set.commentary = escapeLittleText(text);
        updated.push('commentary');
      }
      if (typeof settings.visibility === 'string') { set.visibility = settings.visibility; updated.push('linkedin_visibility'); }
      if (typeof settings.disable_reshare === 'boolean') { set.isReshareDisabledByAuthor = settings.disable_reshare; updated.push('linkedin_disable_reshare'); }
      if (!updated.length) throw new PlatformError('linkedin', { kind: 'invalid_content', code: 'nothing_to_update' }, 'Nothing to update: send commentary, linkedin_visibility or linkedin_disable_reshare.');
      await client.rest('POST', `/posts/${encodeURIComponent(urn)}`, tokenOf(ctx), { patch: { $set: set } }, ctx.signal, { 'x-restli-method': 'PARTIAL_UPDATE' });
      return { id: urn, url: urlOf(urn), updated, ...(post.extra ? { extra: post.extra } : {}) };
    },
    async unpublish(ctx, post) {
      await client.rest('DELETE', `/posts/${encodeURIComponent(urnOf(post.id))}`, tokenOf(ctx), undefined, ctx.signal);
    },
    async repost(ctx, post) {
      const member = ctx.credentials.member_urn;
      if (!member) throw new PlatformError('linkedin', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored LinkedIn credentials lack the member; reconnect the account.');
      const reply = await client.rest('POST', '/posts', tokenOf(ctx), {
        author: member,
        commentary: '',
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
        reshareContext: { parent: urnOf(post.id) },
      }, ctx.signal);
      const urn = reply.headers.get('x-restli-id');
      if (!urn) throw client.malformed(reply.status, 'the reshare URN (x-restli-id)');
      return { id: urn, url: urlOf(urn) };
    },
  };
}
