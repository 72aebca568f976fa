/**
 * DEV (dev.to, Forem API v1): the account is an API key, verified with /users/me; articles in
 * markdown with tags, series, canonical URL, draft or published and a cover image by URL; edit.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { httpUrl } from '../kit/env';
import { systemNow } from '../kit/http';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createDevtoClient, DEFAULT_TIMEOUT_MS, DEVTO_API_BASE } from './client';
import { createDevtoConnector } from './connect';
import { devtoDescriptor } from './descriptor';
import { createDevtoPostEditor } from './posts';
import { createDevtoPublisher } from './publish';

export { DEVTO_API_BASE, mapDevtoFailure, type DevtoOutcome } from './client';
export { devtoDescriptor } from './descriptor';
export { devtoCredentialFields, devtoSettings } from './settings';

export interface DevtoPlatformOptions extends CommonOptions {
  /** Default https://dev.to/api (another Forem's /api works too); a simulator's in tests and the sandbox. */
  apiBase?: string;
}

export function createDevtoPlatform(opts: DevtoPlatformOptions = {}): PlatformAdapter {
  const client = createDevtoClient({ apiBase: opts.apiBase ?? DEVTO_API_BASE, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, fetch: opts.fetch ?? fetch, now: opts.now ?? systemNow });
  return {
    descriptor: devtoDescriptor,
    credentials: createDevtoConnector(client),
    publisher: createDevtoPublisher(client),
    postEditor: createDevtoPostEditor(client),
  };
}

export const devto = defineNetwork<'devto', DevtoPlatformOptions>({
  id: 'devto',
  descriptor: devtoDescriptor,
  env: { apiBase: ['DEVTO_API_BASE', httpUrl, { meaning: 'DEV (Forem) API.', default: '`https://dev.to/api`' }] },
  create: createDevtoPlatform,
});
