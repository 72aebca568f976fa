export * from './simulator';
export * from './sandbox';
export { LINKEDIN_FAILURE_MODES, LINKEDIN_SIM_ALL_SCOPES, LINKEDIN_SIM_RETRY_AFTER_SECONDS, type LinkedInFailureMode } from './failures';
export { engagementRate as linkedinEngagementRate, LINKEDIN_STATISTICS_SCOPE, type LinkedInAnalytics, type LinkedInShareCounts } from './analytics';
export type {
  LinkedInAccountFixture, LinkedInClientFixture, LinkedInPageFixture, LinkedInSimComment, LinkedInSimImage, LinkedInSimPost,
  LinkedInSimulatorOptions, LinkedInSimVideo,
} from './state';
export { renderLittleText } from './text';
