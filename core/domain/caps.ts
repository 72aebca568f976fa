/**
 * A day, for the rolling-24-hour caps. The caps themselves are network rules: each network's
 * descriptor says them (`rules.dailyCap`, `rules.perMinuteCap`; spec "Limits"; where the spec gives
 * two values, youtube 30 / 10 and pinterest 20 / 25, the lower one applies).
 */
export const DAY_MS = 24 * 3600_000;
