import type { Platform } from './platforms';

/**
 * Daily publishing caps per connected account over a rolling 24 hours (spec "Limits"). Where the
 * spec gives two values (youtube 30 / 10, pinterest 20 / 25) the lower one applies.
 */
export const DAILY_CAPS: Partial<Record<Platform, number>> = {
  instagram: 50,
  tiktok: 15,
  linkedin: 150,
  threads: 50,
  bluesky: 50,
  x: 50,
  youtube: 10,
  pinterest: 20,
};

/** Per-minute bursts per connected account (TikTok: 6 posts a minute). */
export const PER_MINUTE_CAPS: Partial<Record<Platform, number>> = { tiktok: 6 };

export const DAY_MS = 24 * 3600_000;
