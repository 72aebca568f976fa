/**
 * Lemmy (join-lemmy.org/api, HTTP API v3): the account is an instance, a username and password (a
 * JWT from the login, renewed by logging in again) and a community. Plain HTTP: there is no
 * well-kept Node client, and every connection brings its own instance.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { flag, millis } from '../kit/env';
import { systemNow } from '../kit/http';
import { instanceFetch, instanceRules, type InstanceOptions } from '../kit/instance';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createLemmyClient, DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS } from './client';
import { createLemmyConnector } from './connect';
import { lemmyDescriptor } from './descriptor';
import { createLemmyPostEditor } from './posts';
import { createLemmyPublisher } from './publish';
import { createLemmyRefresher } from './session';

export { mapLemmyFailure, type LemmyOutcome } from './client';
export { instanceBase } from './connect';
export { lemmyDescriptor } from './descriptor';
export { lemmyCredentialFields, lemmySettings } from './settings';

export interface LemmyPlatformOptions extends CommonOptions, InstanceOptions {
  /** Accept http:// instance URLs (local instances, the sandbox). Default false: https only. */
  allowHttpInstances?: boolean;
  /** Image uploads. Default 2 min. */
  uploadTimeoutMs?: number;
}

export function createLemmyPlatform(opts: LemmyPlatformOptions = {}): PlatformAdapter {
  const rules = instanceRules(opts.allowHttpInstances === true, opts.resolve);
  const client = createLemmyClient({
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, uploadTimeoutMs: opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS, fetch: instanceFetch(opts.fetch ?? fetch, rules), now: opts.now ?? systemNow,
  });
  return {
    descriptor: lemmyDescriptor,
    credentials: createLemmyConnector(client, { allowHttp: opts.allowHttpInstances === true, rules }),
    refresher: createLemmyRefresher(client),
    publisher: createLemmyPublisher(client),
    postEditor: createLemmyPostEditor(client),
  };
}

export const lemmy = defineNetwork<'lemmy', LemmyPlatformOptions>({
  id: 'lemmy',
  descriptor: lemmyDescriptor,
  env: { allowHttpInstances: ['LEMMY_ALLOW_HTTP_INSTANCES', flag, { meaning: 'Accept `http://` instance URLs and private addresses when connecting (local instances, the sandbox).', default: '`false`' }], uploadTimeoutMs: ['LEMMY_UPLOAD_TIMEOUT_MS', millis, { meaning: 'Image upload timeout (pict-rs).', default: '120000 (2 min)' }] },
  create: createLemmyPlatform,
});
