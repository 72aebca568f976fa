import { createPlatformRegistry } from '../../adapters/platforms/registry';
import type { MediaListRequest, PlatformAdapter } from '../../core/ports/platform';
import type { PinKind } from '../../core/domain/profile';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { listMedia } from '../../core/usecases/media-library';
import { setPin } from '../../core/usecases/pins';
import { createProfile } from '../../core/usecases/profiles';
import { fakeTextPlatform } from '../support/fake-platform';
import { aWorld } from '../support/world';

/**
 * A fake network with a media library that records what it was asked; `page`: the list reads a
 * page named by that parameter, else the profile's pin of that kind (as LinkedIn declares it).
 */
function withLibrary(id: 'tiktok' | 'linkedin' | 'instagram', maxLimit: number, cursors: boolean, page?: { param: string; pin: PinKind }): { adapter: PlatformAdapter; asked: MediaListRequest[] } {
  const base = fakeTextPlatform(id).adapter;
  const asked: MediaListRequest[] = [];
  return {
    asked,
    adapter: {
      ...base,
      descriptor: {
        ...base.descriptor,
        mediaLibrary: page ? { pageParam: { name: page.param, description: 'the page' } } : {},
        ...(page ? { pin: { kind: page.pin, lookup: 'pages' } } : {}),
      },
      mediaLibrary: {
        maxLimit, cursors,
        async list(_ctx, request) {
          asked.push(request);
          const items = Array.from({ length: request.limit + 3 }, (_, i) => ({ id: `${id}-${i}`, mediaType: 'TEXT' as const, timestamp: '2026-01-01T00:00:00.000Z' }));
          return { items, ...(cursors ? { cursor: 'next-page' } : {}) };
        },
      },
    },
  };
}

describe('GET /media use case', () => {
  async function setUp() {
    const world = aWorld();
    const tiktok = withLibrary('tiktok', 20, true);
    const linkedin = withLibrary('linkedin', 100, false, { param: 'page_urn', pin: 'linkedin-page' });
    const deps = { ...world.deps, platforms: createPlatformRegistry([tiktok.adapter, linkedin.adapter, fakeTextPlatform('discord').adapter]) };
    const { account } = await world.operator();
    for (const username of ['ana', 'bo']) await createProfile(deps, account, { username });
    for (const p of ['tiktok', 'linkedin'] as const) await connectWithCredentials(deps, account, p, { profile_username: 'ana', secret: 'good' });
    return { deps, account, tiktok, linkedin };
  }

  it('clamps the limit to 1-100, then to the network cap, and never hands back more items than that', async () => {
    const { deps, account, tiktok } = await setUp();
    const page = await listMedia(deps, account, { platform: 'tiktok', user: 'ana', limit: 500 });
    expect(page.pagination).toEqual({ limit: 20, next_cursor: 'next-page', has_more: true });
    expect(page.media).toHaveLength(20);
    expect(page.media[0]).toEqual({ id: 'tiktok-0', caption: '', media_type: 'TEXT', media_url: null, permalink: null, timestamp: '2026-01-01T00:00:00.000Z', thumbnail_url: null });
    expect((await listMedia(deps, account, { platform: 'tiktok', user: 'ana', limit: 0 })).pagination.limit).toBe(1);
    expect((await listMedia(deps, account, { platform: 'TikTok', user: 'ana' })).pagination.limit).toBe(20);
    await expect(listMedia(deps, account, { platform: 'twitter', user: 'ana' })).rejects.toMatchObject({ errorCode: 'platform_not_supported', message: expect.stringMatching(/"twitter"/) });
    await listMedia(deps, account, { platform: 'tiktok', user: 'ana', limit: 5, cursor: 'abc' });
    expect(tiktok.asked.at(-1)).toEqual({ limit: 5, cursor: 'abc' });
  });

  it('refuses a cursor where the network has none, and uses the pinned LinkedIn page unless page_urn is sent', async () => {
    const { deps, account, linkedin } = await setUp();
    await expect(listMedia(deps, account, { platform: 'linkedin', user: 'ana', cursor: 'x' })).rejects.toMatchObject({ kind: 'invalid_input', errorCode: 'cursor_not_supported', details: { error: expect.any(String) } });
    const page = await listMedia(deps, account, { platform: 'linkedin', user: 'ana' });
    expect(page.pagination).toEqual({ limit: 25, next_cursor: null, has_more: false });
    await setPin(deps.storage, account, 'linkedin-page', { profile_username: 'ana', page_id: '777' });
    await listMedia(deps, account, { platform: 'linkedin', user: 'ana' });
    expect(linkedin.asked.at(-1)).toEqual({ limit: 25, page: '777' });
    await listMedia(deps, account, { platform: 'linkedin', user: 'ana', pages: { page_urn: 'urn:li:organization:9' } });
    expect(linkedin.asked.at(-1)).toEqual({ limit: 25, page: 'urn:li:organization:9' });
    await expect(listMedia(deps, account, { platform: 'tiktok', user: 'ana', pages: { page_urn: '9' } })).rejects.toMatchObject({ kind: 'invalid_input', message: 'page_urn is for platform=linkedin only.' });
  });

  it('answers platform_not_supported, 404 for an unknown profile and not_connected for a known one', async () => {
    const { deps, account } = await setUp();
    await expect(listMedia(deps, account, { platform: 'discord', user: 'ana' })).rejects.toMatchObject({ errorCode: 'platform_not_supported', message: expect.stringMatching(/tiktok, linkedin/) });
    await expect(listMedia(deps, account, { platform: 'nope', user: 'ana' })).rejects.toMatchObject({ errorCode: 'platform_not_supported' });
    await expect(listMedia(deps, account, { platform: 'tiktok', user: 'ghost' })).rejects.toMatchObject({ kind: 'not_found', errorCode: 'PROFILE_NOT_FOUND' });
    await expect(listMedia(deps, account, { platform: 'tiktok', user: 'bo' })).rejects.toMatchObject({ kind: 'invalid_input', errorCode: 'not_connected', details: { error: expect.stringMatching(/bo/) } });
  });
});
