/**
 * Deterministic audience breakdowns for the simulators: `total` people spread over fixed buckets
 * with seeded weights (largest remainder, so the parts add up to the total exactly).
 */
import type { AnalyticsModel } from './metrics';

export const AGE_BUCKETS = ['13-17', '18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
export const GENDERS = ['F', 'M', 'U'] as const;
export const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'BR', 'IN', 'JP'] as const;
export const CITIES = ['London, England', 'New York, New York', 'Berlin, Berlin', 'Paris, Ile-de-France', 'Sao Paulo, Sao Paulo'] as const;

export function spread(model: AnalyticsModel, key: string, buckets: readonly string[], total: number): Record<string, number> {
  const weights = buckets.map((b) => model.draw(`${key}:${b}`, 1, 100));
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / sum) * total);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) { if (left-- <= 0) break; parts[i]! += 1; }
  return Object.fromEntries(buckets.map((b, i) => [b, parts[i]!]));
}

/** The four breakdowns of an audience of `total`. */
export function audienceOf(model: AnalyticsModel, key: string, total: number) {
  return {
    age: spread(model, `${key}:age`, AGE_BUCKETS, total),
    gender: spread(model, `${key}:gender`, GENDERS, total),
    country: spread(model, `${key}:country`, COUNTRIES, total),
    city: spread(model, `${key}:city`, CITIES, total),
  };
}
