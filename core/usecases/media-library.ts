/**
 * GET /media: a connected account's recent published media, one page at a time. The limit is
 * clamped to 1–100, then to the network's own cap; a cursor goes back to the network untouched,
 * and a network without cursors refuses one.
 */
import { invalidInput, type CodeOfKind } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { PIN_KINDS } from '../domain/profile';
import { isPlatform, PLATFORM_ALIASES, type Platform } from '../domain/platforms';
import type { LibraryMedia } from '../ports/platform';
import type { Storage } from '../ports/storage';
import { withConnection, type ConnectionSessionDeps } from './connection-session';
import { requireProfile } from './profiles';

export const MEDIA_LIST_DEFAULT_LIMIT = 25;
export const MEDIA_LIST_MAX_LIMIT = 100;

export type MediaLibraryDeps = ConnectionSessionDeps & { storage: Pick<Storage, 'connectedAccounts' | 'profiles'> };

export interface MediaListInput {
  platform: string;
  user: string;
  /** Already a whole number when present. */
  limit?: number;
  cursor?: string;
  /** The page parameters given, by name (each network's `pageParam`: LinkedIn `page_urn`, Facebook `facebook_page_id`). */
  pages?: Record<string, string>;
}

export interface MediaItemView {
  id: string;
  caption: string;
  media_type: LibraryMedia['mediaType'];
  media_url: string | null;
  permalink: string | null;
  timestamp: string | null;
  thumbnail_url: string | null;
  children?: Array<{ id: string; media_type: string; media_url: string | null; thumbnail_url?: string | null; timestamp: string | null }>;
}

export interface MediaListView {
  success: true;
  media: MediaItemView[];
  pagination: { limit: number; next_cursor: string | null; has_more: boolean };
}

/** The 400 body of the media list carries `error` (the spec's `{success:false, error}`). */
const refuse = (message: string, code?: CodeOfKind<'invalid_input'>) => invalidInput(message, { error: message }, code);

export function mediaLibraryPlatforms(deps: Pick<MediaLibraryDeps, 'platforms'>): Platform[] {
  return deps.platforms.having('mediaLibrary').map((a) => a.descriptor.id);
}

export async function listMedia(deps: MediaLibraryDeps, account: OperatorAccount, input: MediaListInput): Promise<MediaListView> {
  const given = input.platform.trim().toLowerCase();
  const name = PLATFORM_ALIASES[given] ?? given;
  const adapter = isPlatform(name) ? deps.platforms.with(name, 'mediaLibrary') : undefined;
  if (!adapter) {
    throw refuse(`The media list is not available for "${input.platform}"; it is for ${mediaLibraryPlatforms(deps).join(', ')}.`, 'platform_not_supported');
  }
  const library = adapter.mediaLibrary;
  const wanted = Math.min(MEDIA_LIST_MAX_LIMIT, Math.max(1, input.limit ?? MEDIA_LIST_DEFAULT_LIMIT));
  const limit = Math.min(wanted, library.maxLimit);
  if (input.cursor !== undefined && !library.cursors) {
    throw refuse(`${name} does not page the media list with a cursor; send limit (at most ${library.maxLimit}) without cursor.`, 'cursor_not_supported');
  }
  const pageParam = adapter.descriptor.mediaLibrary?.pageParam?.name;
  for (const param of Object.keys(input.pages ?? {})) {
    if (param === pageParam) continue;
    const owners = deps.platforms.having('mediaLibrary').filter((a) => a.descriptor.mediaLibrary?.pageParam?.name === param).map((a) => a.descriptor.id);
    throw refuse(`${param} is for platform=${owners.join(' or ') || 'none'} only.`);
  }
  // The connection first: one read on the hot path. The profile is read only to tell 404 from
  // 400 when there is none, and for the networks whose list depends on a pinned page.
  const connection = await deps.storage.connectedAccounts.find(account.id, input.user, name as Platform);
  if (!connection || connection.status === 'disconnected') {
    const profile = await requireProfile(deps.storage, account.id, input.user);
    throw invalidInput(`No ${name} account is connected to profile "${profile.username}".`, { error: `No ${name} account is connected to profile "${profile.username}".`, platform: name }, 'not_connected');
  }
  // The page: the request's, else the profile's pin (read only for a network whose list reads a page).
  const pinKind = adapter.descriptor.pin?.kind;
  const asked = pageParam !== undefined ? input.pages?.[pageParam] : undefined;
  const target = asked ?? (pageParam !== undefined && pinKind
    ? (await requireProfile(deps.storage, account.id, input.user)).pins?.[PIN_KINDS[pinKind].field]
    : undefined);
  const page = await withConnection(deps, connection, (ctx) => library.list(ctx, {
    limit, ...(input.cursor !== undefined ? { cursor: input.cursor } : {}), ...(target !== undefined ? { page: target } : {}),
  }));
  const items = page.items.slice(0, limit);
  return {
    success: true,
    media: items.map(view),
    pagination: { limit, next_cursor: page.cursor ?? null, has_more: page.cursor !== undefined },
  };
}

function view(item: LibraryMedia): MediaItemView {
  const out: MediaItemView = {
    id: item.id,
    caption: item.caption ?? '',
    media_type: item.mediaType,
    media_url: item.mediaUrl ?? null,
    permalink: item.permalink ?? null,
    timestamp: item.timestamp ?? null,
    thumbnail_url: item.thumbnailUrl ?? null,
  };
  if (item.children) {
    out.children = item.children.map((c) => ({
      id: c.id, media_type: c.mediaType, media_url: c.mediaUrl ?? null,
      ...(c.mediaType === 'VIDEO' ? { thumbnail_url: c.thumbnailUrl ?? null } : {}), timestamp: c.timestamp ?? null,
    }));
  }
  return out;
}
