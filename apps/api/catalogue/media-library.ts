import { z } from 'zod';
import { NETWORKS } from '../../../adapters/platforms';
import { invalidInput } from '../../../core/domain/errors';
import { PLATFORMS } from '../../../core/domain/platforms';
import { refuseUnavailablePlatforms, single } from '../input';
import { operation, ruledBy } from './types';
import { ok } from './common';

/** The networks whose descriptors declare a media list, in the API's platform order. */
const MEDIA_DESCRIPTORS = NETWORKS.map((n) => n.descriptor).filter((d) => d.mediaLibrary)
  .sort((a, b) => PLATFORMS.indexOf(a.id) - PLATFORMS.indexOf(b.id));
const NETWORKS_WITH_MEDIA = MEDIA_DESCRIPTORS.map((d) => d.id);

/** The media list answers 400 with `{success:false, error}` (and our message and error_code beside it). */
export const refuse = (message: string) => invalidInput(message, { error: message });

function text(value: unknown, name: string): string | undefined {
  const v = single(value);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw refuse(`${name} must be a non-empty text.`);
  return v.trim();
}

const MediaType = z.enum(['IMAGE', 'VIDEO', 'CAROUSEL_ALBUM', 'TEXT']);

export const listMedia = operation({
  id: 'listMedia', method: 'get', path: '/svc/media', tags: ['media library'],
  summary: 'Published media of a connected account',
  description: 'Recent posts of the profile\'s account on one network, newest first, one page at a time: pass `pagination.next_cursor` back as `cursor` while `has_more`. '
    + 'limit defaults to 25, is clamped to 1-100, then capped per network (tiktok 20, youtube 50, others 100). linkedin has no cursor (a cursor answers 400) and lists organization pages only (page_urn, else the pinned or first administered page; a personal profile answers 400). '
    + '`media_url` is a temporary URL, null on tiktok and youtube (use permalink). Instagram carousels carry `children`. Every error body carries `error`. reddit answers 503.',
  auth: 'apiKey',
  query: z.object({
    platform: ruledBy((v) => {
      refuseUnavailablePlatforms(v);
      const platform = text(v, 'platform');
      if (!platform) throw refuse(`platform is required (${NETWORKS_WITH_MEDIA.slice(0, -1).join(', ')} or ${NETWORKS_WITH_MEDIA.at(-1)}).`);
      return platform;
    }, z.string().describe(`The network (required): ${NETWORKS_WITH_MEDIA.join(', ')}.`)),
    user: ruledBy((v, all) => {
      const user = text(v ?? all.profile_username, 'user');
      if (!user) throw refuse('user is required: the profile username whose account is listed.');
      return user;
    }, z.string().describe('The profile (required; alias profile_username).')),
    profile_username: z.string().optional().describe('Alias of user.'),
    limit: ruledBy((v) => {
      const raw = text(v, 'limit');
      if (raw !== undefined && !/^-?\d+$/.test(raw)) throw refuse(`limit must be a whole number (1-100); got "${raw}".`);
      return raw === undefined ? undefined : Number(raw);
    }, z.int().optional().describe('Items per page: default 25, clamped to 1-100, then to the network\'s cap.')),
    cursor: ruledBy((v) => text(v, 'cursor'), z.string().optional().describe('pagination.next_cursor of the previous page.')),
    // Each network's page parameter (its descriptor's mediaLibrary.pageParam: LinkedIn page_urn, Facebook facebook_page_id).
    ...Object.fromEntries(MEDIA_DESCRIPTORS.flatMap((d) => {
      const param = d.mediaLibrary?.pageParam;
      return param ? [[param.name, ruledBy((v) => text(v, param.name), z.string().optional().describe(`${d.id} only: ${param.description}`))]] : [];
    })),
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
