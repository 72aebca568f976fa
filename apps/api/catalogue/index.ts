import type { Operation } from './types';
import { accountOperations } from './account';
import { commentOperations } from './comments';
import { analyticsOperations } from './analytics';
import { analyticsHistoryOperations } from './analytics-history';
import { connectionOperations } from './connections';
import { documentOperations } from './documents';
import { lookupOperations } from './lookups';
import { mediaJobOperations } from './media-jobs';
import { mediaLibraryOperations } from './media-library';
import { mediaUploadOperations } from './media-uploads';
import { notificationOperations } from './notifications';
import { postOperations } from './posts';
import { profileOperations } from './profiles';
import { uploadOperations } from './uploads';

/**
 * Every REST operation of the API. A route group adds its file's array here (one line); the drift
 * test (test/unit/catalogue.test.ts) fails when a router route has no operation here or the other
 * way round.
 */
export const OPERATIONS: readonly Operation[] = [
  ...documentOperations,
  ...accountOperations,
  ...profileOperations,
  ...connectionOperations,
  ...uploadOperations,
  ...lookupOperations,
  ...mediaLibraryOperations,
  ...postOperations,
  ...commentOperations,
  ...mediaUploadOperations,
  ...mediaJobOperations,
  ...notificationOperations,
  ...analyticsOperations,
  ...analyticsHistoryOperations,
];

export type { Operation } from './types';
export { operation, refusedAs, refusal, ruledBy } from './types';
export { mount, koaPath, documentPath } from './mount';
export { openApiDocument, operationInputSchema, jsonSchemaOf } from './openapi';
export { operationRequest, type OperationRequest } from './requests';
