/**
 * Pinterest through API v5 (developers.pinterest.com/docs/api/v5, OpenAPI at
 * github.com/pinterest/api-description): the capabilities assembled over one client (connect.ts,
 * publish.ts, boards.ts). Pinterest has no first-comment API and the spec lists no first comment
 * for it: no comments capability.
 */
import type { PlatformAdapter, PlatformCredentials } from '../../../core/ports/platform';
import { httpUrl } from '../kit/env';
import { systemNow, trimBase, type Now } from '../kit/http';
import { defineNetwork } from '../kit/network';
import { createPinterestAnalytics } from './analytics';
import { createPinterestBoards, type PinterestBoard } from './boards';
import { createPinterestClient } from './client';
import { createPinterestConnect, PINTEREST_AUTH_BASE } from './connect';
import { pinterestDescriptor } from './descriptor';
import { createPinterestLookups } from './lookups';
import { createPinterestMediaLibrary } from './media';
import { createPinterestPostEditor } from './posts';
import { createPinterestPublisher } from './publish';

export type { PinterestBoard } from './boards';
export { mapPinterestFailure, PINTEREST_VIDEO_NOT_READY_CODE, type PinterestCall, type PinterestOutcome } from './client';
export { PINTEREST_AUTH_BASE, PINTEREST_SCOPES } from './connect';
export * from './descriptor';
export { PINTEREST_SAVE_RETRY_DELAYS_MS } from './publish';
export { PINTEREST_AI_DISCLOSURES, pinterestSettings } from './settings';

export const PINTEREST_API_BASE = 'https://api.pinterest.com/v5';

export interface PinterestPlatformOptions {
  /** The Pinterest app's id and secret (developers.pinterest.com/apps). */
  clientId: string;
  clientSecret: string;
  /** Default https://api.pinterest.com/v5; a simulator's `/v5` base in tests and the sandbox. */
  apiBase?: string;
  /** Host of the authorize page; default https://www.pinterest.com. */
  authBase?: string;
  /** JSON calls; default 15 s. */
  timeoutMs?: number;
  /** The video byte upload to `upload_url`; default 5 min. */
  uploadTimeoutMs?: number;
  fetch?: typeof fetch;
  /** Clock for token expiry and rate-limit waits. */
  now?: Now;
}

/** The adapter plus its board list (also its lookups capability, GET /svc/pinterest/boards). */
export interface PinterestPlatform extends PlatformAdapter {
  listBoards(credentials: PlatformCredentials, signal?: AbortSignal): Promise<PinterestBoard[]>;
}

export function createPinterestPlatform(opts: PinterestPlatformOptions): PinterestPlatform {
  const client = createPinterestClient({
    apiBase: trimBase(opts.apiBase ?? PINTEREST_API_BASE),
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    timeoutMs: opts.timeoutMs ?? 15_000,
    uploadTimeoutMs: opts.uploadTimeoutMs ?? 300_000,
    fetch: opts.fetch ?? fetch,
    now: opts.now ?? systemNow,
  });
  const { oauth, refresher } = createPinterestConnect(client, { authBase: trimBase(opts.authBase ?? PINTEREST_AUTH_BASE) });
  const listBoards = createPinterestBoards(client);
  return {
    descriptor: pinterestDescriptor,
    oauth,
    refresher,
    listBoards,
    publisher: createPinterestPublisher(client),
    mediaLibrary: createPinterestMediaLibrary(client),
    lookups: createPinterestLookups(listBoards),
    postEditor: createPinterestPostEditor(client),
    analytics: createPinterestAnalytics(client),
  };
}

export const pinterest = defineNetwork<'pinterest', PinterestPlatformOptions>({
  id: 'pinterest',
  descriptor: pinterestDescriptor,
  env: {
    apiBase: ['PINTEREST_API_BASE', httpUrl, { meaning: 'Pinterest API v5.', default: '`https://api.pinterest.com/v5`' }],
    authBase: ['PINTEREST_AUTH_BASE', httpUrl, { meaning: 'Pinterest consent page host.', default: '`https://www.pinterest.com`' }],
  },
  create: createPinterestPlatform,
});
