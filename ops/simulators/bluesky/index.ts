export * from './simulator';
export * from './sandbox';
export {
  BLUESKY_FAILURE_MODES, BLUESKY_FAILURE_TARGETS, BLUESKY_SIM_RATE_LIMIT_RESET_SECONDS, BLUESKY_SIM_VIDEO_SERVICE_DID, type BlueskyFailureMode,
} from './failures';
export type { BlueskyAccountFixture, BlueskyBlob, BlueskyRecord, BlueskySimulatorOptions, BlueskyVideoJob } from './state';
