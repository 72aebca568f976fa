import { defineNetwork } from '../kit/network';
import { httpUrl, millis, text } from '../kit/env';
import { createThreadsPlatform, threadsDescriptor, type ThreadsPlatformOptions } from './adapter';

export * from './adapter';

export const threads = defineNetwork<'threads', ThreadsPlatformOptions>({
  id: 'threads',
  descriptor: threadsDescriptor,
  env: {
    apiBase: ['THREADS_API_BASE', httpUrl],
    apiVersion: ['THREADS_API_VERSION', text],
    authorizeUrl: ['THREADS_AUTHORIZE_URL', httpUrl],
    pollIntervalMs: ['THREADS_POLL_MS', millis],
  },
  pollOptions: ['pollIntervalMs'],
  create: createThreadsPlatform,
});
