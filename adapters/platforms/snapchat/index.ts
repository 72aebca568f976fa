/**
 * Snapchat Public Profiles (developers.snap.com/api/marketing-api/Public-Profile-API): Snap OAuth 2,
 * Stories and Spotlight videos through the encrypted, chunked upload flow. One record for the list.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { httpUrl } from '../kit/env';
import { systemNow, trimBase } from '../kit/http';
import { defineNetwork, type CommonOptions, type OAuthClientOptions } from '../kit/network';
import { createSnapchatClient, SNAP_API_BASE, SNAP_AUTH_BASE } from './client';
import { createSnapchatConnect } from './connect';
import { snapchatDescriptor } from './descriptor';
import { createSnapchatPostEditor } from './posts';
import { createSnapchatPublisher, SNAP_PART_MAX_BYTES } from './publish';

export { mapSnapchatFailure, SNAP_API_BASE } from './client';
export { SNAP_SCOPES } from './connect';
export { snapchatDescriptor } from './descriptor';
export { snapchatSettings } from './settings';

export interface SnapchatPlatformOptions extends CommonOptions, OAuthClientOptions {
  /** Public Profile API host. Default https://businessapi.snapchat.com. */
  apiBase?: string;
  /** OAuth host (`/login/oauth2/authorize`, `/login/oauth2/access_token`). Default https://accounts.snapchat.com. */
  authBase?: string;
  /** Encrypted bytes per upload part; at most 32 MB (Snap's limit), the default. */
  partBytes?: number;
}

export function createSnapchatPlatform(opts: SnapchatPlatformOptions): PlatformAdapter {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const client = createSnapchatClient({
    apiBase: trimBase(opts.apiBase ?? SNAP_API_BASE), timeoutMs, uploadTimeoutMs: Math.max(timeoutMs, 300_000),
    fetch: opts.fetch ?? fetch, now: opts.now ?? systemNow,
  });
  const { oauth, refresher } = createSnapchatConnect(client, { clientId: opts.clientId, clientSecret: opts.clientSecret, authBase: trimBase(opts.authBase ?? SNAP_AUTH_BASE) });
  return {
    descriptor: snapchatDescriptor,
    oauth,
    refresher,
    publisher: createSnapchatPublisher(client, { partBytes: opts.partBytes ?? SNAP_PART_MAX_BYTES }),
    postEditor: createSnapchatPostEditor(client),
  };
}

export const snapchat = defineNetwork<'snapchat', SnapchatPlatformOptions>({
  id: 'snapchat',
  descriptor: snapchatDescriptor,
  env: {
    apiBase: ['SNAPCHAT_API_BASE', httpUrl, { meaning: 'Snap Public Profile API.', default: '`https://businessapi.snapchat.com`' }],
    authBase: ['SNAPCHAT_AUTH_BASE', httpUrl, { meaning: 'Snap OAuth host.', default: '`https://accounts.snapchat.com`' }],
    partBytes: ['SNAPCHAT_UPLOAD_PART_BYTES', (raw, variable) => {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 16 || n > 32 * 1024 * 1024) throw new Error(`${variable} must be a number of bytes from 16 to 33554432, got "${raw}"`);
      return n;
    }, { meaning: 'Encrypted bytes per upload part (Snap\'s maximum is 32 MiB).', default: '33554432 (32 MiB)', type: 'bytes, 16 to 33554432' }],
  },
  create: createSnapchatPlatform,
});
