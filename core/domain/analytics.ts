/**
 * Which networks answer analytics (spec "Analytics"): the platforms GET /analytics takes, and the
 * ones that get a per-platform "no analytics" message instead of an error.
 */
import type { Platform } from './platforms';

/** The `platforms` values the spec lists for GET /analytics. */
export const ANALYTICS_PLATFORMS: readonly Platform[] = [
  'instagram', 'tiktok', 'linkedin', 'facebook', 'x', 'youtube', 'threads', 'pinterest', 'reddit', 'bluesky', 'google_business',
];

/** Networks without analytics: a per-platform message, not an error (snapchat: its public profile API has none). */
export const NO_ANALYTICS_PLATFORMS: readonly Platform[] = [
  'discord', 'telegram', 'slack', 'mastodon', 'nostr', 'lemmy', 'devto', 'hashnode', 'wordpress', 'whop', 'listmonk', 'snapchat',
];

/** Facebook's `days` bounds and default; every other network answers the last 30 days. */
export const FACEBOOK_DAYS = { min: 1, max: 365, default: 30 } as const;
export const DEFAULT_ANALYTICS_DAYS = 30;
