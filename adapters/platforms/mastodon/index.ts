/**
 * Mastodon (docs.joinmastodon.org): the account is an instance URL plus an access token, verified
 * with verify_credentials; statuses with up to four media (processing polled), visibility, content
 * warning, sensitivity, language and polls; edit and delete. Plain HTTP: masto 8 needs Node 22.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { flag, millis } from '../kit/env';
import { systemNow } from '../kit/http';
import { instanceFetch, instanceRules, type InstanceOptions } from '../kit/instance';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createMastodonClient, DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS } from './client';
import { createMastodonConnector } from './connect';
import { mastodonDescriptor } from './descriptor';
import { createMastodonPostEditor } from './posts';
import { createMastodonPublisher } from './publish';

export { mapMastodonFailure, type MastodonOutcome } from './client';
export { mastodonDescriptor, mastodonLength } from './descriptor';
export { mastodonCredentialFields, mastodonSettings } from './settings';

export interface MastodonPlatformOptions extends CommonOptions, InstanceOptions {
  /** Accept instances on http:// or private addresses (the sandbox's loopback simulator). Default false: https on public addresses only. */
  allowPrivateInstances?: boolean;
  /** Delay between media processing polls. Default 2 s. */
  mediaPollMs?: number;
  /** Media still processing after this long fail the post. Default 10 min. */
  maxProcessingMs?: number;
  /** Media uploads. Default 5 min. */
  uploadTimeoutMs?: number;
}

export function createMastodonPlatform(opts: MastodonPlatformOptions = {}): PlatformAdapter {
  const now = opts.now ?? systemNow;
  const allowPrivateInstances = opts.allowPrivateInstances ?? false;
  const client = createMastodonClient({
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, uploadTimeoutMs: opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS,
    fetch: instanceFetch(opts.fetch ?? fetch, instanceRules(allowPrivateInstances, opts.resolve)), now,
  });
  return {
    descriptor: mastodonDescriptor,
    credentials: createMastodonConnector(client, { allowPrivateInstances, resolve: opts.resolve }),
    publisher: createMastodonPublisher(client, { mediaPollMs: opts.mediaPollMs ?? 2_000, maxProcessingMs: opts.maxProcessingMs ?? 10 * 60_000, now }),
    postEditor: createMastodonPostEditor(client),
  };
}

export const mastodon = defineNetwork<'mastodon', MastodonPlatformOptions>({
  id: 'mastodon',
  descriptor: mastodonDescriptor,
  env: {
    allowPrivateInstances: ['MASTODON_ALLOW_PRIVATE_INSTANCES', flag, { meaning: 'Accept `http://` instance URLs and private, loopback or reserved addresses when connecting.', default: '`false`' }],
    mediaPollMs: ['MASTODON_MEDIA_POLL_MS', millis, { meaning: 'Delay between media processing polls (a durable wait each).', default: '2000 (2 s)' }],
    maxProcessingMs: ['MASTODON_MAX_PROCESSING_MS', millis, { meaning: 'How long media processing may take before the post fails.', default: '600000 (10 min)' }],
    uploadTimeoutMs: ['MASTODON_UPLOAD_TIMEOUT_MS', millis, { meaning: 'Media upload timeout.', default: '300000 (5 min)' }],
  },
  pollOptions: ['mediaPollMs'],
  create: createMastodonPlatform,
});
