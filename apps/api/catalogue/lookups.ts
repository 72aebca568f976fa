import { z } from 'zod';
import { invalidInput } from '../../../core/domain/errors';
import { operation, ruledBy } from './types';
import { ok, ProfileUsername } from './common';

/** Lookups: ids a publish request takes (pages, boards, locations, music) and account records, read from the connected accounts. */

/** `profile` (also `profile_username`): optional for lists (every profile's), required for records. */
const profileRule = (required: boolean) => (value: unknown, all: Record<string, unknown>) => {
  const raw = value ?? all.profile_username;
  if (raw === undefined && required) throw invalidInput('profile is required: the profile username whose connected account is asked.');
  if (raw !== undefined && (typeof raw !== 'string' || raw === '')) throw invalidInput('profile must be a profile username.');
  return raw;
};
const optionalProfile = {
  profile: ruledBy(profileRule(false), ProfileUsername.optional().describe('The profile; every profile with the network connected when omitted.')),
  profile_username: z.string().optional().describe('Alias of profile.'),
};
const requiredProfile = {
  profile: ruledBy(profileRule(true), ProfileUsername.describe('The profile whose connected account is asked (required).')),
  profile_username: z.string().optional().describe('Alias of profile.'),
};
const search = {
  query: ruledBy((value, all) => {
    const raw = value ?? all.q ?? all.keyword;
    if (typeof raw !== 'string' || !raw.trim()) throw invalidInput('query is required: the text to search for.');
    if (raw.length > 100) throw invalidInput('query is limited to 100 characters.');
    return raw.trim();
  }, z.string().max(100).describe('The text to search for (aliases q, keyword).')),
  q: z.string().optional().describe('Alias of query.'),
  keyword: z.string().optional().describe('Alias of query.'),
};
const limit = (max: number) => ruledBy((raw) => {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1) throw invalidInput(`limit must be a whole number from 1 to ${max}.`);
  return Math.min(Number(raw), max);
}, z.int().min(1).max(max).optional().describe(`How many to return (at most ${max}).`));
const listErrors = { 400: 'profile is not a username; not_connected (the network is not connected to the profile); platform_not_supported.', 404: 'PROFILE_NOT_FOUND.', 409: 'reauth_required: reconnect the account.', 502: 'The network refused or failed.' };
const tiktokErrors = { ...listErrors, 400: `${listErrors[400]} profile or query missing; tiktok_reconnect_required (the connection predates the grants the helper needs: reconnect TikTok).` };

export const listGoogleBusinessLocations = operation({
  id: 'listGoogleBusinessLocations', method: 'get', path: '/svc/google-business/locations', tags: ['lookups'],
  summary: 'Google Business locations',
  description: 'The Business Profile locations of a profile\'s connected Google account (or of every profile): `location_id` is what `gbp_location_id` and the location pin take. Errors: 404 `PROFILE_NOT_FOUND`, 409 `reauth_required`.',
  auth: 'apiKey',
  query: z.object(optionalProfile),
  responses: {
    200: {
      description: 'Locations.',
      schema: ok({
        locations: z.array(z.object({
          location_id: z.string(), location_name: z.string(), account_id: z.string().nullable(), account_name: z.string().nullable(),
          address: z.any().nullable(), maps_uri: z.string().nullable(), profile: z.string(),
        })),
      }),
    },
  },
  errors: { 400: 'profile is not a username.', 404: 'PROFILE_NOT_FOUND.', 409: 'reauth_required.' },
});

/**
 * The commercial API's published clients read a page's or a board's `id` and `name`; the spec names
 * them `page_id`/`page_name` (`board_id`/`board_name`). Both are answered, equal.
 */
const IdName = { id: z.string().describe('The same as page_id / board_id.'), name: z.string().describe('The same as page_name / board_name.') };

export const listFacebookPages = operation({
  id: 'listFacebookPages', method: 'get', path: '/svc/facebook/pages', tags: ['lookups'],
  summary: 'Facebook pages',
  description: 'The Facebook Pages of a profile\'s connected Facebook account, or of every profile when `profile` is omitted: `page_id` is what `facebook_page_id` and the page pin take.',
  auth: 'apiKey',
  query: z.object(optionalProfile),
  responses: { 200: { description: 'Pages.', schema: ok({ pages: z.array(z.object({ page_id: z.string(), page_name: z.string(), ...IdName, profile: z.string() })) }) } },
  errors: listErrors,
});

export const listLinkedInPages = operation({
  id: 'listLinkedInPages', method: 'get', path: '/svc/linkedin/pages', tags: ['lookups'],
  summary: 'LinkedIn pages',
  description: 'The LinkedIn organization pages the connected member administers (one profile, or every profile): `page_id` is what `target_linkedin_page_id`, the page pin and the media list\'s `page_urn` take. A personal profile without pages lists none.',
  auth: 'apiKey',
  query: z.object(optionalProfile),
  responses: {
    200: {
      description: 'Pages.',
      schema: ok({ pages: z.array(z.object({ page_id: z.string(), page_name: z.string(), ...IdName, page_urn: z.string().nullable(), role: z.string().nullable(), vanity_name: z.string().nullable(), profile: z.string() })) }),
    },
  },
  errors: listErrors,
});

export const listPinterestBoards = operation({
  id: 'listPinterestBoards', method: 'get', path: '/svc/pinterest/boards', tags: ['lookups'],
  summary: 'Pinterest boards',
  description: 'The boards of a profile\'s connected Pinterest account (or of every profile): `board_id` is what `pinterest_board_id` takes.',
  auth: 'apiKey',
  query: z.object(optionalProfile),
  responses: {
    200: { description: 'Boards.', schema: ok({ boards: z.array(z.object({ board_id: z.string(), board_name: z.string(), ...IdName, description: z.string().nullable(), privacy: z.string().nullable(), profile: z.string() })) }) },
  },
  errors: listErrors,
});

const Music = z.object({ music_id: z.string(), title: z.string(), author: z.string().nullable(), duration_sec: z.number().nullable(), cover_url: z.string().nullable(), profile: z.string() });

export const listTikTokTrendingMusic = operation({
  id: 'listTikTokTrendingMusic', method: 'get', path: '/svc/tiktok/music/trending', tags: ['lookups'],
  summary: 'TikTok trending music',
  description: 'Trending sounds for the profile\'s TikTok account: `music_id` is what `tiktok_music_id` takes (needs the `music` capability to be used in a post).',
  auth: 'apiKey',
  query: z.object({ limit: limit(50), ...requiredProfile }),
  responses: { 200: { description: 'Music.', schema: ok({ music: z.array(Music) }) } },
  errors: tiktokErrors,
});

export const searchTikTokMusic = operation({
  id: 'searchTikTokMusic', method: 'get', path: '/svc/tiktok/music/search', tags: ['lookups'],
  summary: 'Search TikTok music',
  description: 'Sounds whose title or author matches `query`, for the profile\'s TikTok account.',
  auth: 'apiKey',
  query: z.object({ ...search, limit: limit(50), ...requiredProfile }),
  responses: { 200: { description: 'Music.', schema: ok({ query: z.string(), music: z.array(Music) }) } },
  errors: tiktokErrors,
});

export const searchTikTokLocations = operation({
  id: 'searchTikTokLocations', method: 'get', path: '/svc/tiktok/locations', tags: ['lookups'],
  summary: 'Search TikTok locations',
  description: 'At most 20 places matching `query`: `location_id` and `location_name` are what `tiktok_location_id` and `tiktok_location_name` take.',
  auth: 'apiKey',
  query: z.object({ ...search, limit: limit(20), ...requiredProfile }),
  responses: {
    200: { description: 'Locations.', schema: ok({ query: z.string(), locations: z.array(z.object({ location_id: z.string(), location_name: z.string(), address: z.string().nullable(), profile: z.string() })).max(20) }) },
  },
  errors: tiktokErrors,
});

export const getTikTokSettings = operation({
  id: 'getTikTokSettings', method: 'get', path: '/svc/tiktok/settings', tags: ['lookups'],
  summary: 'TikTok creator settings',
  description: 'What the TikTok account may post right now (TikTok\'s creator_info): the privacy levels `privacy_level` may take, the longest video, and whether comments, duets and stitches are switched off. Ask before a post to avoid `tiktok_privacy_unavailable`.',
  auth: 'apiKey',
  query: z.object(requiredProfile),
  responses: {
    200: {
      description: 'Settings.',
      schema: ok({
        profile: z.string(), platform: z.literal('tiktok'), creator_username: z.string().nullable(), creator_nickname: z.string().nullable(), creator_avatar_url: z.string().nullable(),
        privacy_level_options: z.array(z.string()), max_video_post_duration_sec: z.number().nullable(),
        comment_disabled: z.boolean(), duet_disabled: z.boolean(), stitch_disabled: z.boolean(),
      }),
    },
  },
  errors: tiktokErrors,
});

export const getInstagramPublishingLimit = operation({
  id: 'getInstagramPublishingLimit', method: 'get', path: '/svc/instagram/publishing_limit', tags: ['lookups'],
  summary: 'Instagram publishing limit',
  description: 'API-published posts of the Instagram account in the moving 24-hour window (Instagram\'s content_publishing_limit): used, total and remaining.',
  auth: 'apiKey',
  query: z.object(requiredProfile),
  responses: {
    200: {
      description: 'Quota.',
      schema: ok({ profile: z.string(), platform: z.literal('instagram'), quota_usage: z.number(), quota_total: z.number(), quota_remaining: z.number(), quota_duration_seconds: z.number() }),
    },
  },
  errors: listErrors,
});

const Quota = z.object({ usage: z.number(), total: z.number(), remaining: z.number(), duration_seconds: z.number() });
export const getThreadsPublishingLimit = operation({
  id: 'getThreadsPublishingLimit', method: 'get', path: '/svc/threads/publishing_limit', tags: ['lookups'],
  summary: 'Threads publishing limit',
  description: 'Posts (250) and replies (1,000) the Threads account may still publish in the moving 24-hour window (Threads\' threads_publishing_limit).',
  auth: 'apiKey',
  query: z.object(requiredProfile),
  responses: { 200: { description: 'Quotas.', schema: ok({ profile: z.string(), platform: z.literal('threads'), posts: Quota, replies: Quota }) } },
  errors: listErrors,
});

export const lookupOperations = [
  listGoogleBusinessLocations, listFacebookPages, listLinkedInPages, listPinterestBoards,
  listTikTokTrendingMusic, searchTikTokMusic, searchTikTokLocations, getTikTokSettings, getInstagramPublishingLimit, getThreadsPublishingLimit,
];
