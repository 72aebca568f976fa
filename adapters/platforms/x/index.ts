import { defineNetwork } from '../kit/network';
import { flag, httpUrl } from '../kit/env';
import { createXPlatform, xDescriptor, type XPlatformOptions } from './adapter';

export * from './adapter';

export const x = defineNetwork<'x', XPlatformOptions>({
  id: 'x',
  descriptor: xDescriptor,
  env: {
    apiBase: ['X_API_BASE', httpUrl],
    authBase: ['X_AUTH_BASE', httpUrl],
    keepLinks: ['X_KEEP_LINKS', flag],
  },
  create: createXPlatform,
});
