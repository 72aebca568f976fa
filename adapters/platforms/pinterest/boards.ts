/** The board lookup the engine offers as GET /svc/pinterest/boards (GET /v5/boards, bookmark paging). */
import type { PlatformCredentials } from '../../../core/ports/platform';
import { isObject, str } from '../kit/http';
import type { PinterestClient } from './client';

const BOARD_PAGE_SIZE = 100;
const MAX_BOARD_PAGES = 50;

export interface PinterestBoard {
  id: string;
  name: string;
  description: string;
  privacy: string;
}

export function createPinterestBoards(client: PinterestClient): (credentials: PlatformCredentials, signal?: AbortSignal) => Promise<PinterestBoard[]> {
  async function listBoards(credentials: PlatformCredentials, signal?: AbortSignal): Promise<PinterestBoard[]> {
    const token = client.accessToken(credentials);
    const boards: PinterestBoard[] = [];
    let bookmark: string | undefined;
    for (let page = 0; page < MAX_BOARD_PAGES; page++) {
      const query = new URLSearchParams({ page_size: String(BOARD_PAGE_SIZE), ...(bookmark ? { bookmark } : {}) });
      const body = await client.call('GET', `/boards?${query}`, { token }, undefined, { what: 'a board list', has: (b) => Array.isArray(b.items) }, signal);
      for (const item of body.items as unknown[]) {
        if (!isObject(item) || typeof item.id !== 'string') continue;
        boards.push({ id: item.id, name: str(item.name) ?? '', description: str(item.description) ?? '', privacy: str(item.privacy) ?? 'PUBLIC' });
      }
      bookmark = str(body.bookmark);
      if (!bookmark) break;
    }
    return boards;
  }

  return listBoards;
}
