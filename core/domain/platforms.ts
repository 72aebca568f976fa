/** The platform identifiers of the API. These values are interface identifiers and are used exactly. */
export const PLATFORMS = [
  'tiktok', 'instagram', 'linkedin', 'youtube', 'facebook', 'x', 'threads', 'pinterest', 'bluesky',
  'reddit', 'discord', 'telegram', 'google_business', 'mastodon', 'wordpress', 'slack', 'nostr',
  'lemmy', 'devto', 'hashnode', 'whop', 'listmonk', 'snapchat',
] as const;

export type Platform = (typeof PLATFORMS)[number];

export function isPlatform(value: string): value is Platform {
  return (PLATFORMS as readonly string[]).includes(value);
}

/** Publishing, connecting and commenting on these answer 503 `reddit_unavailable`. */
export const UNAVAILABLE_PLATFORMS: readonly Platform[] = ['reddit'];

/** The upload endpoints: /upload, /upload_photos, /upload_text, and LinkedIn documents at /upload_document. */
export type MediaKind = 'video' | 'photo' | 'text' | 'document';

/** The video endpoint spells X as `twitter`; every other endpoint uses `x`. */
export const PLATFORM_ALIASES: Record<string, Platform> = { twitter: 'x' };
