/**
 * Analytics request bounds (spec "Analytics"). Which networks answer analytics is their adapters'
 * `analytics` capability (core/usecases/analytics.ts).
 */

/** The window of a network that does not read `days` (its descriptor's `analytics.days` otherwise). */
export const DEFAULT_ANALYTICS_DAYS = 30;
