/**
 * Analytics request bounds (spec "Analytics"). Which networks answer analytics is their adapters'
 * `analytics` capability (core/usecases/analytics.ts).
 */

/** Facebook's `days` bounds and default; every other network answers the last 30 days. */
export const FACEBOOK_DAYS = { min: 1, max: 365, default: 30 } as const;
export const DEFAULT_ANALYTICS_DAYS = 30;
