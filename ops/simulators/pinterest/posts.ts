/**
 * Published-pin operations of the Pinterest simulator (developers.pinterest.com/docs/api/v5:
 * pins/save, pins/delete): `POST /v5/pins/{pin_id}/save {board_id, board_section_id?}` saves any
 * pin to a board the caller owns (201, the new Pin with `parent_pin_id`); `DELETE /v5/pins/{pin_id}`
 * deletes the caller's own pin (204).
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { ERR, invalidParams, obj, type PinterestSimAccount, type PinterestSimBoard, type PinterestSimPin } from './fixtures';

export interface PinterestPostsState {
  boards: Map<string, PinterestSimBoard>;
  storedPins: PinterestSimPin[];
  numericId(kind: string, length: number): string;
}

const pinNotFound = (res: ServerResponse) => sendJson(res, 404, { code: 50, message: 'Pin not found.' });

export function createPinterestPosts(s: PinterestPostsState) {
  function savePin(req: SimRequest, res: ServerResponse, account: PinterestSimAccount, pinId: string) {
    const source = s.storedPins.find((p) => p.pin.id === pinId);
    if (!source) return pinNotFound(res);
    const body: Record<string, unknown> = req.body.kind === 'json' && obj(req.body.value) ? req.body.value : {};
    if (typeof body.board_id !== 'string') return sendJson(res, 400, invalidParams('board_id is required.'));
    const board = s.boards.get(body.board_id);
    if (!board || board.ownerId !== account.id) return sendJson(res, 404, ERR.boardNotFound);
    if (body.board_section_id !== undefined && !board.sections.some((x) => x.id === body.board_section_id)) return sendJson(res, 404, ERR.sectionNotFound);
    const id = s.numericId('pin', 18);
    const pin: Record<string, unknown> = {
      ...structuredClone(source.pin), id, created_at: new Date().toISOString().replace(/\.\d+Z$/, ''),
      board_id: board.id, board_section_id: body.board_section_id ?? null, board_owner: { username: account.username },
      is_owner: true, parent_pin_id: source.pin.id,
    };
    s.storedPins.push({ pin, ownerId: account.id, request: structuredClone(body), fetched: [] });
    return sendJson(res, 201, pin);
  }

  function deletePin(res: ServerResponse, account: PinterestSimAccount, pinId: string) {
    const index = s.storedPins.findIndex((p) => p.pin.id === pinId && p.ownerId === account.id);
    if (index < 0) return pinNotFound(res);
    s.storedPins.splice(index, 1);
    res.writeHead(204, { 'content-length': 0 });
    res.end();
  }

  return { savePin, deletePin };
}
