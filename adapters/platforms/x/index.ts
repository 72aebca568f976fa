/**
 * X through the API v2 for a user who connected with OAuth 2 Authorization Code + PKCE: the
 * capabilities assembled over one client (connect.ts, publish.ts with plan.ts and text.ts, comments.ts).
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { flag, httpUrl } from '../kit/env';
import { systemNow, trimBase, type Now } from '../kit/http';
import { defineNetwork } from '../kit/network';
import { createXAnalytics } from './analytics';
import { createXClient } from './client';
import { createXComments } from './comments';
import { createXConnect, X_AUTH_BASE } from './connect';
import { xDescriptor } from './descriptor';
import { createXMediaLibrary } from './media';
import { createXPostEditor } from './posts';
import { createXPublisher, MAX_SEGMENT_BYTES } from './publish';

export { mapXFailure, type XFailureContext, type XOutcome } from './client';
export { X_AUTH_BASE, X_SCOPES } from './connect';
export * from './descriptor';
export { xSettings } from './settings';
export { splitIntoThread, stripLinks, xWeightedLength } from './text';

export const X_API_BASE = 'https://api.x.com';

export interface XPlatformOptions {
  /** Default https://api.x.com (API, token endpoint, media upload); a simulator's origin in tests. */
  apiBase?: string;
  /** Default https://x.com, where the authorize page lives. */
  authBase?: string;
  clientId: string;
  /** Confidential client: token calls authenticate with HTTP Basic. Omit for a public client. */
  clientSecret?: string;
  /** X shows links in posts only on paid add-ons: by default they are stripped (with a warning). */
  keepLinks?: boolean;
  /** Append segment size in bytes (default 4 MiB, at most 5 MiB). */
  chunkBytes?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Clock for token expiry and rate-limit waits. */
  now?: Now;
}

export function createXPlatform(opts: XPlatformOptions): PlatformAdapter {
  const keepLinks = opts.keepLinks ?? false;
  const chunkBytes = opts.chunkBytes ?? 4 * 1024 * 1024;
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1 || chunkBytes > MAX_SEGMENT_BYTES) {
    throw new Error(`chunkBytes must be a whole number of bytes between 1 and ${MAX_SEGMENT_BYTES}`);
  }
  const client = createXClient({
    apiBase: trimBase(opts.apiBase ?? X_API_BASE),
    timeoutMs: opts.timeoutMs ?? 30_000,
    fetch: opts.fetch ?? fetch,
    now: opts.now ?? systemNow,
  });
  const { oauth, refresher } = createXConnect(client, {
    clientId: opts.clientId, clientSecret: opts.clientSecret, authBase: trimBase(opts.authBase ?? X_AUTH_BASE),
  });
  return {
    descriptor: xDescriptor,
    oauth,
    refresher,
    publisher: createXPublisher(client, { keepLinks, chunkBytes }),
    comments: createXComments(client, { keepLinks }),
    mediaLibrary: createXMediaLibrary(client),
    postEditor: createXPostEditor(client),
    analytics: createXAnalytics(client),
  };
}

export const x = defineNetwork<'x', XPlatformOptions>({
  id: 'x',
  descriptor: xDescriptor,
  env: {
    apiBase: ['X_API_BASE', httpUrl, { meaning: 'X API v2 host.', default: '`https://api.x.com`' }],
    authBase: ['X_AUTH_BASE', httpUrl, { meaning: 'X consent page host.', default: '`https://x.com`' }],
    keepLinks: ['X_KEEP_LINKS', flag, { meaning: 'Keep links in the text as they are (X counts each as 23 characters either way).', default: '`false`' }],
  },
  create: createXPlatform,
});
