import type { Operation } from './types';
import { profileOperations } from './profiles';

/**
 * Every REST operation of the API, in registration order. A route group adds its file's array
 * here (one line); the drift test (test/unit/catalogue-drift.test.ts) fails when a router route
 * has no operation here or the other way round.
 */
export const OPERATIONS: readonly Operation[] = [
  ...profileOperations,
];

export type { Operation } from './types';
export { operation, checkedByCore } from './types';
export { mount, koaPath, documentPath } from './mount';
