/** The pools' bundle entry points (apps/worker/pools/*), which the workflow tier runs. */
export const BUNDLES = {
  publish: require.resolve('../../workflows/index'),
  media: require.resolve('../../workflows/media-job.workflow'),
  notify: require.resolve('../../workflows/notification-channel.workflow'),
  analytics: require.resolve('../../workflows/analytics-snapshots.workflow'),
} as const;

export type Pool = keyof typeof BUNDLES;

/** Where global-setup.ts left the bundles, one `<pool>.js` each. */
export const BUNDLES_ENV = 'HERALD_WORKFLOW_TIER_BUNDLES';

/** Bundler chatter stays out of the output; warnings and errors still show. */
export const quietLogger = {
  log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined,
  warn: (message: string) => console.warn(message), error: (message: string) => console.error(message),
};
