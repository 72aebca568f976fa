/**
 * WordPress sites through the REST API (developer.wordpress.org/rest-api): the account is a site URL,
 * a username and an application password (Basic auth). Plain HTTP: the API is JSON plus raw-byte
 * media uploads; every connection brings its own site, so there is no base URL to configure.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { flag, millis } from '../kit/env';
import { systemNow } from '../kit/http';
import { instanceFetch, instanceRules, type InstanceOptions } from '../kit/instance';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createWordPressClient, DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS } from './client';
import { createWordPressConnector } from './connect';
import { wordpressDescriptor } from './descriptor';
import { createWordPressPostEditor } from './posts';
import { createWordPressPublisher } from './publish';

export { mapWordPressFailure, type WordPressOutcome } from './client';
export { siteBase } from './connect';
export { wordpressDescriptor } from './descriptor';
export { wordpressCredentialFields, wordpressSettings } from './settings';

export interface WordPressPlatformOptions extends CommonOptions, InstanceOptions {
  /** Accept http:// site URLs (local sites, the sandbox). Default false: https only. */
  allowHttpSites?: boolean;
  /** Media uploads. Default 5 min. */
  uploadTimeoutMs?: number;
}

export function createWordPressPlatform(opts: WordPressPlatformOptions = {}): PlatformAdapter {
  const rules = instanceRules(opts.allowHttpSites === true, opts.resolve);
  const client = createWordPressClient({
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, uploadTimeoutMs: opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS, fetch: instanceFetch(opts.fetch ?? fetch, rules), now: opts.now ?? systemNow,
  });
  return {
    descriptor: wordpressDescriptor,
    credentials: createWordPressConnector(client, { allowHttp: opts.allowHttpSites === true, rules }),
    publisher: createWordPressPublisher(client),
    postEditor: createWordPressPostEditor(client),
  };
}

export const wordpress = defineNetwork<'wordpress', WordPressPlatformOptions>({
  id: 'wordpress',
  descriptor: wordpressDescriptor,
  env: { allowHttpSites: ['WORDPRESS_ALLOW_HTTP_SITES', flag, { meaning: 'Accept `http://` site URLs and private addresses when connecting (local sites, the sandbox).', default: '`false`' }], uploadTimeoutMs: ['WORDPRESS_UPLOAD_TIMEOUT_MS', millis, { meaning: 'Media library upload timeout.', default: '300000 (5 min)' }] },
  create: createWordPressPlatform,
});
