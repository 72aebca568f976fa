/**
 * The platforms the spec lists for each upload endpoint ("Upload video", "Upload photos", "Upload
 * text", "Upload document"). Herald's networks declare their endpoints in their descriptors and
 * may take more (Snapchat and Slack videos, Slack and listmonk photos: docs/publishing.md); the
 * contract checks that none takes fewer than the spec asks.
 */
import type { MediaKind, Platform } from '../../core/domain/platforms';

export const SPEC_ENDPOINT_PLATFORMS: Record<MediaKind, readonly Platform[]> = {
  video: ['tiktok', 'instagram', 'linkedin', 'youtube', 'facebook', 'x', 'threads', 'pinterest', 'bluesky',
    'reddit', 'discord', 'telegram', 'google_business', 'mastodon', 'wordpress'],
  photo: ['tiktok', 'instagram', 'linkedin', 'facebook', 'x', 'threads', 'pinterest', 'bluesky', 'reddit',
    'discord', 'telegram', 'google_business', 'mastodon', 'lemmy', 'wordpress'],
  text: ['x', 'linkedin', 'facebook', 'threads', 'bluesky', 'discord', 'telegram', 'google_business', 'slack',
    'mastodon', 'nostr', 'lemmy', 'devto', 'hashnode', 'wordpress', 'whop', 'listmonk', 'reddit'],
  document: ['linkedin'],
};
