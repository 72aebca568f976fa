/**
 * listmonk (self-hosted newsletters, listmonk.app/docs/apis): the account is an instance URL plus an
 * API user and token, verified with GET /api/lists; a post becomes a campaign (subject = title,
 * body = description or text, lists, template, content type) that is started or scheduled.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { flag } from '../kit/env';
import { systemNow } from '../kit/http';
import { instanceFetch, instanceRules, type InstanceOptions } from '../kit/instance';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createListmonkClient, DEFAULT_TIMEOUT_MS } from './client';
import { createListmonkConnector } from './connect';
import { listmonkDescriptor } from './descriptor';
import { createListmonkPublisher } from './publish';

export { mapListmonkFailure, type ListmonkOutcome } from './client';
export { listmonkDescriptor } from './descriptor';
export { listmonkCredentialFields, listmonkSettings } from './settings';

export interface ListmonkPlatformOptions extends CommonOptions, InstanceOptions {
  /** Accept instances on http:// or private addresses (the sandbox's loopback simulator, an instance on the operator's network). Default false. */
  allowPrivateInstances?: boolean;
}

export function createListmonkPlatform(opts: ListmonkPlatformOptions = {}): PlatformAdapter {
  const now = opts.now ?? systemNow;
  const allowPrivateInstances = opts.allowPrivateInstances ?? false;
  const client = createListmonkClient({ timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, fetch: instanceFetch(opts.fetch ?? fetch, instanceRules(allowPrivateInstances, opts.resolve)), now });
  return {
    descriptor: listmonkDescriptor,
    credentials: createListmonkConnector(client, { allowPrivateInstances, resolve: opts.resolve }),
    publisher: createListmonkPublisher(client, now),
  };
}

export const listmonk = defineNetwork<'listmonk', ListmonkPlatformOptions>({
  id: 'listmonk',
  descriptor: listmonkDescriptor,
  env: { allowPrivateInstances: ['LISTMONK_ALLOW_PRIVATE_INSTANCES', flag, { meaning: 'Accept `http://` instance URLs and private, loopback or reserved addresses when connecting (the sandbox, an instance on the operator\'s network).', default: '`false`' }] },
  create: createListmonkPlatform,
});
