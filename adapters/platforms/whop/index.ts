/**
 * Whop forums (docs.whop.com, REST API v1): the account is an API key plus a forum experience,
 * verified with GET /experiences/:id; forum posts with title, markdown content and attachments
 * (files already on Whop); edit.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { httpUrl } from '../kit/env';
import { systemNow } from '../kit/http';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createWhopClient, DEFAULT_TIMEOUT_MS, WHOP_API_BASE } from './client';
import { createWhopConnector } from './connect';
import { whopDescriptor } from './descriptor';
import { createWhopPostEditor } from './posts';
import { createWhopPublisher } from './publish';

export { mapWhopFailure, WHOP_API_BASE, type WhopOutcome } from './client';
export { whopDescriptor } from './descriptor';
export { whopCredentialFields, whopSettings } from './settings';

export interface WhopPlatformOptions extends CommonOptions {
  /** Default https://api.whop.com/api/v1 (https://sandbox-api.whop.com/api/v1 for Whop's sandbox); a simulator's in tests. */
  apiBase?: string;
}

export function createWhopPlatform(opts: WhopPlatformOptions = {}): PlatformAdapter {
  const client = createWhopClient({ apiBase: opts.apiBase ?? WHOP_API_BASE, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, fetch: opts.fetch ?? fetch, now: opts.now ?? systemNow });
  return {
    descriptor: whopDescriptor,
    credentials: createWhopConnector(client),
    publisher: createWhopPublisher(client),
    postEditor: createWhopPostEditor(client),
  };
}

export const whop = defineNetwork<'whop', WhopPlatformOptions>({
  id: 'whop',
  descriptor: whopDescriptor,
  env: { apiBase: ['WHOP_API_BASE', httpUrl, { meaning: 'Whop API (its sandbox: `https://sandbox-api.whop.com/api/v1`).', default: '`https://api.whop.com/api/v1`' }] },
  create: createWhopPlatform,
});
