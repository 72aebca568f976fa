/**
 * The platform port, one file per capability. A network adapter (one folder per network under
 * adapters/platforms/) exports a descriptor and implements the capabilities it has; the core asks
 * the registry for a capability, never for a god object.
 */
export type { MediaRef } from '../../domain/media';
export * from './descriptor';
export * from './context';
export * from './refs';
export * from './connect';
export * from './publish';
export * from './comments';
export * from './later';
export * from './analytics';
export * from './probe';
export * from './registry';
