/**
 * Changes to a published Pin (developers.pinterest.com/docs/api/v5: pins/save, pins/delete): save
 * (`POST /v5/pins/{pin_id}/save` with `board_id` and optional `board_section_id`: the spec's "repin",
 * answered with the new Pin) and delete (`DELETE /v5/pins/{pin_id}`, the account's own pins).
 * Pinterest's "Pin not found" (code 50) is a pin that is not there.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor } from '../../../core/ports/platform';
import { str } from '../kit/http';
import type { PinterestClient } from './client';

const PIN_ID = /^\d{1,25}$/;
const PIN_NOT_FOUND = 50;

export function createPinterestPostEditor(client: PinterestClient): PostEditor {
  const pinId = (id: string) => {
    if (!PIN_ID.test(id)) throw new PlatformError('pinterest', { kind: 'invalid_content', code: 'invalid_post_id' }, 'A Pinterest post id is the Pin id (digits).');
    return id;
  };
  const gone = (err: unknown, id: string) => (err instanceof PlatformError && err.upstream.code === PIN_NOT_FOUND
    ? new PlatformError('pinterest', { kind: 'rejected', code: 'not_found' }, `Pinterest has no Pin ${id} (deleted, or not visible to this account).`, err.upstream)
    : err);
  return {
    async save(ctx, post, target) {
      const id = pinId(post.id);
      try {
        const pin = await client.call('POST', `/pins/${id}/save`, { token: client.accessToken(ctx.credentials) },
          { json: { board_id: target.boardId, ...(target.sectionId ? { board_section_id: target.sectionId } : {}) } },
          { what: 'the saved Pin id', has: (b) => typeof b.id === 'string' }, ctx.signal);
        const saved = str(pin.id)!;
        return { id: saved, url: `https://www.pinterest.com/pin/${saved}/` };
      } catch (err) {
        throw gone(err, id);
      }
    },
    async unpublish(ctx, post) {
      const id = pinId(post.id);
      try {
        await client.call('DELETE', `/pins/${id}`, { token: client.accessToken(ctx.credentials) }, undefined, { what: 'nothing', has: () => true }, ctx.signal);
      } catch (err) {
        throw gone(err, id);
      }
    },
  };
}
