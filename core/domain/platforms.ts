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

/** Which platforms each upload endpoint accepts, as the spec lists them. */
export const ENDPOINT_PLATFORMS: Record<MediaKind, readonly Platform[]> = {
  video: ['tiktok', 'instagram', 'linkedin', 'youtube', 'facebook', 'x', 'threads', 'pinterest', 'bluesky',
    'reddit', 'discord', 'telegram', 'google_business', 'mastodon', 'wordpress',
    // Not in the spec's list of this endpoint; the issue asks for Snapchat Story and Spotlight videos (docs/publishing.md, per-network notes).
    'snapchat',
    // Not in the spec's list either: Slack files upload v2 with a bot token (issue 14, docs/publishing.md).
    'slack'],
  photo: ['tiktok', 'instagram', 'linkedin', 'facebook', 'x', 'threads', 'pinterest', 'bluesky', 'reddit',
    'discord', 'telegram', 'google_business', 'mastodon', 'lemmy', 'wordpress',
    // Not in the spec's list of this endpoint: Slack files upload v2 with a bot token, listmonk images
    // embedded in the campaign through its media API (issue 14, docs/publishing.md).
    'slack', 'listmonk'],
  text: ['x', 'linkedin', 'facebook', 'threads', 'bluesky', 'discord', 'telegram', 'google_business', 'slack',
    'mastodon', 'nostr', 'lemmy', 'devto', 'hashnode', 'wordpress', 'whop', 'listmonk', 'reddit'],
  // POST /upload_document: PDF, PPT, PPTX, DOC and DOCX as LinkedIn document posts (issue 11).
  document: ['linkedin'],
};

/** The video endpoint spells X as `twitter`; every other endpoint uses `x`. */
export const PLATFORM_ALIASES: Record<string, Platform> = { twitter: 'x' };
