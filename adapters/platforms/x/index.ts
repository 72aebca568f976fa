import { defineNetwork } from '../kit/network';
import { flag, httpUrl } from '../kit/env';
import { xDescriptor } from './descriptor';
import { createXPlatform, type XPlatformOptions } from './platform';

export { mapXFailure, type XFailureContext, type XOutcome } from './client';
export { X_AUTH_BASE, X_SCOPES } from './connect';
export * from './descriptor';
export * from './platform';
export { xSettings } from './settings';
export { splitIntoThread, stripLinks, xWeightedLength } from './text';

export const x = defineNetwork<'x', XPlatformOptions>({
  id: 'x',
  descriptor: xDescriptor,
  env: {
    apiBase: ['X_API_BASE', httpUrl, { meaning: 'X API v2 host.', default: '`https://api.x.com`' }],
    authBase: ['X_AUTH_BASE', httpUrl, { meaning: 'X consent page host.', default: '`https://x.com`' }],
    keepLinks: ['X_KEEP_LINKS', flag, { meaning: 'Keep links in the text as they are (X counts each as 23 characters either way).', default: '`false`' }],
  },
  create: createXPlatform,
});
