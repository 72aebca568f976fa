import { defineNetwork } from '../kit/network';
import { httpUrl } from '../kit/env';
import { createPinterestPlatform, pinterestDescriptor, type PinterestPlatformOptions } from './adapter';

export * from './adapter';

export const pinterest = defineNetwork<'pinterest', PinterestPlatformOptions>({
  id: 'pinterest',
  descriptor: pinterestDescriptor,
  env: {
    apiBase: ['PINTEREST_API_BASE', httpUrl],
    authBase: ['PINTEREST_AUTH_BASE', httpUrl],
  },
  create: createPinterestPlatform,
});
