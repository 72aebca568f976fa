/**
 * Threads through the Threads API (developers.facebook.com/docs/threads). client.ts (HTTP and the
 * failure mapping), descriptor.ts + limits.ts + settings.ts (what intake checks), connect.ts (OAuth,
 * token renewal), publish.ts (containers and threads), comments.ts (replies), probe.ts.
 */
import { createThreadsAnalytics } from './analytics';
import type { PlatformAdapter } from '../../../core/ports/platform';
import { defineNetwork } from '../kit/network';
import { httpUrl, millis, text } from '../kit/env';
import { createThreadsClient, type ThreadsPlatformOptions } from './client';
import { createThreadsComments } from './comments';
import { createThreadsConnect } from './connect';
import { threadsDescriptor } from './descriptor';
import { createThreadsLookups } from './lookups';
import { createThreadsMediaLibrary } from './media';
import { createThreadsProbe } from './probe';
import { createThreadsPublisher } from './publish';

export {
  mapThreadsFailure, THREADS_API_BASE, THREADS_API_VERSION, THREADS_AUTHORIZE_URL, THREADS_SCOPES,
  type ThreadsFailureContext, type ThreadsOutcome, type ThreadsPlatformOptions,
} from './client';
export { threadsDescriptor } from './descriptor';
export { threadsTextLength } from './limits';
export { threadsSettings } from './settings';

export function createThreadsPlatform(opts: ThreadsPlatformOptions): PlatformAdapter {
  const client = createThreadsClient(opts);
  return {
    descriptor: threadsDescriptor,
    ...createThreadsConnect(client),
    publisher: createThreadsPublisher(client),
    probe: createThreadsProbe(client),
    comments: createThreadsComments(client),
    mediaLibrary: createThreadsMediaLibrary(client),
    lookups: createThreadsLookups(client),
    analytics: createThreadsAnalytics(client),
  };
}

export const threads = defineNetwork<'threads', ThreadsPlatformOptions>({
  id: 'threads',
  descriptor: threadsDescriptor,
  env: {
    apiBase: ['THREADS_API_BASE', httpUrl, { meaning: 'Threads Graph API host.', default: '`https://graph.threads.net`' }],
    apiVersion: ['THREADS_API_VERSION', text, { meaning: 'Threads API version.', default: '`v1.0`' }],
    authorizeUrl: ['THREADS_AUTHORIZE_URL', httpUrl, { meaning: 'Threads consent page.', default: '`https://threads.net/oauth/authorize`' }],
    pollIntervalMs: ['THREADS_POLL_MS', millis, { meaning: 'Delay between container status polls.', default: '30000 (30 s)' }],
  },
  pollOptions: ['pollIntervalMs'],
  create: createThreadsPlatform,
});
