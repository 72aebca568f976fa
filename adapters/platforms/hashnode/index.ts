/**
 * Hashnode (GraphQL at gql.hashnode.com): the account is a personal access token plus a
 * publication id, verified with `me` and `publication`; posts with `publishPost` (title, markdown,
 * tags, subtitle, cover image, original article URL), edit with `updatePost`, delete with `removePost`.
 * Plain HTTP: the operations are fixed strings, no GraphQL client is worth its weight here.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { httpUrl } from '../kit/env';
import { systemNow } from '../kit/http';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createHashnodeClient, DEFAULT_TIMEOUT_MS, HASHNODE_API_URL } from './client';
import { createHashnodeConnector } from './connect';
import { hashnodeDescriptor } from './descriptor';
import { createHashnodePostEditor } from './posts';
import { createHashnodePublisher } from './publish';

export { HASHNODE_API_URL, mapHashnodeFailure, type HashnodeOutcome } from './client';
export { hashnodeDescriptor } from './descriptor';
export { hashnodeCredentialFields, hashnodeSettings } from './settings';

export interface HashnodePlatformOptions extends CommonOptions {
  /** The GraphQL endpoint. Default https://gql.hashnode.com; a simulator's in tests and the sandbox. */
  apiUrl?: string;
}

export function createHashnodePlatform(opts: HashnodePlatformOptions = {}): PlatformAdapter {
  const client = createHashnodeClient({ apiUrl: opts.apiUrl ?? HASHNODE_API_URL, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, fetch: opts.fetch ?? fetch, now: opts.now ?? systemNow });
  return {
    descriptor: hashnodeDescriptor,
    credentials: createHashnodeConnector(client),
    publisher: createHashnodePublisher(client),
    postEditor: createHashnodePostEditor(client),
  };
}

export const hashnode = defineNetwork<'hashnode', HashnodePlatformOptions>({
  id: 'hashnode',
  descriptor: hashnodeDescriptor,
  env: { apiUrl: ['HASHNODE_API_URL', httpUrl, { meaning: 'Hashnode GraphQL endpoint.', default: '`https://gql.hashnode.com`' }] },
  create: createHashnodePlatform,
});
