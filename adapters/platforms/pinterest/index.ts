import { defineNetwork } from '../kit/network';
import { httpUrl } from '../kit/env';
import { pinterestDescriptor } from './descriptor';
import { createPinterestPlatform, type PinterestPlatformOptions } from './platform';

export type { PinterestBoard } from './boards';
export { mapPinterestFailure, PINTEREST_VIDEO_NOT_READY_CODE, type PinterestCall, type PinterestOutcome } from './client';
export { PINTEREST_AUTH_BASE, PINTEREST_SCOPES } from './connect';
export * from './descriptor';
export * from './platform';
export { PINTEREST_SAVE_RETRY_DELAYS_MS } from './publish';
export { PINTEREST_AI_DISCLOSURES, pinterestSettings } from './settings';

export const pinterest = defineNetwork<'pinterest', PinterestPlatformOptions>({
  id: 'pinterest',
  descriptor: pinterestDescriptor,
  env: {
    apiBase: ['PINTEREST_API_BASE', httpUrl, { meaning: 'Pinterest API v5.', default: '`https://api.pinterest.com/v5`' }],
    authBase: ['PINTEREST_AUTH_BASE', httpUrl, { meaning: 'Pinterest consent page host.', default: '`https://www.pinterest.com`' }],
  },
  create: createPinterestPlatform,
});
