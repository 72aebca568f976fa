import { z } from 'zod';
import { checkedByCore, operation } from './types';
import { ok, ProfileUsername } from './common';

const MediaType = z.enum(['IMAGE', 'VIDEO', 'CAROUSEL_ALBUM', 'TEXT']);

export const listMedia = operation({
  id: 'listMedia', method: 'get', path: '/svc/media', tags: ['media library'],
  summary: 'Published media of a connected account',
  description: 'Recent posts of the profile\'s account on one network, newest first, one page at a time: pass `pagination.next_cursor` back as `cursor` while `has_more`. '
    + 'limit defaults to 25, is clamped to 1-100, then capped per network (tiktok 20, youtube 50, others 100). linkedin has no cursor (a cursor answers 400) and lists organization pages only (page_urn, else the pinned or first administered page; a personal profile answers 400). '
    + '`media_url` is a temporary URL, null on tiktok and youtube (use permalink). Instagram carousels carry `children`. Every error body carries `error`. reddit answers 503.',
  auth: 'apiKey',
  query: z.object({
    platform: checkedByCore(z.enum(['instagram', 'facebook', 'threads', 'bluesky', 'x', 'pinterest', 'tiktok', 'youtube', 'linkedin']).describe('The network (required).')),
    user: checkedByCore(ProfileUsername.describe('The profile (required; alias profile_username).')),
    profile_username: checkedByCore(ProfileUsername.optional().describe('Alias of user.')),
    limit: checkedByCore(z.coerce.number().int().optional().describe('Items per page: default 25, clamped to 1-100, then to the network\'s cap.')),
    cursor: checkedByCore(z.string().optional().describe('pagination.next_cursor of the previous page.')),
    page_urn: checkedByCore(z.string().optional().describe('linkedin only: numeric organization id or urn:li:organization:<id>.')),
    facebook_page_id: checkedByCore(z.string().optional().describe('facebook only: which connected Page (default: the pinned, else the first).')),
  }),
  responses: {
    200: {
      description: 'One page of media.',
      schema: ok({
        media: z.array(z.object({
          id: z.string(), caption: z.string(), media_type: MediaType, media_url: z.string().nullable(), permalink: z.string().nullable(),
          timestamp: z.string().nullable(), thumbnail_url: z.string().nullable(),
          children: z.array(z.object({ id: z.string(), media_type: MediaType, media_url: z.string().nullable(), thumbnail_url: z.string().nullable().optional(), timestamp: z.string().nullable() })).optional(),
        })),
        pagination: z.object({ limit: z.number(), next_cursor: z.string().nullable(), has_more: z.boolean() }),
      }),
    },
  },
  errors: {
    400: 'platform or user missing; limit not a number; platform_not_supported; cursor_not_supported (linkedin); not_connected; invalid_cursor; linkedin_page_required (personal profile); linkedin_page_not_administered.',
    404: 'PROFILE_NOT_FOUND.', 409: 'reauth_required: reconnect the account.', 502: 'The network refused or failed.', 503: 'reddit_unavailable.',
  },
});

export const mediaLibraryOperations = [listMedia];
