import { createPlatformRegistry } from '../../adapters/platforms/registry';
import type { MediaRef } from '../../core/domain/media';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { createProfile } from '../../core/usecases/profiles';
import { submitUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { fakeTextPlatform } from '../support/fake-platform';
import { createInlineUploadRunner } from '../../adapters/memory/upload-runner';
import { aWorld } from '../support/world';

const clip: MediaRef = {
  id: 'v'.repeat(64), kind: 'video', contentType: 'video/mp4', size: 5000,
  info: { durationSeconds: 12, width: 720, height: 1280, frameRate: 30, videoCodec: 'h264', audioCodec: 'aac', container: 'mov,mp4,m4a,3gp,3g2,mj2' },
};
const jpg: MediaRef = { id: 'p'.repeat(64), kind: 'image', contentType: 'image/jpeg', size: 300, info: { durationSeconds: null, width: 1080, height: 1350, frameRate: null, videoCodec: 'mjpeg', audioCodec: null, container: 'jpeg_pipe' } };

async function mediaWorld() {
  const world = aWorld();
  const tiktok = fakeTextPlatform('tiktok', {
    endpoints: ['video', 'photo'],
    limits: { video: { maxSeconds: 10 } },
    settings: {
      fields: [
        { name: 'privacy_level', type: 'string', endpoints: ['video', 'photo'], oneOf: ['PUBLIC_TO_EVERYONE', 'SELF_ONLY'] },
        { name: 'disable_comment', type: 'boolean', endpoints: ['video', 'photo'], default: false },
      ],
    },
  });
  const instagram = fakeTextPlatform('instagram', { endpoints: ['video', 'photo'], limits: { photo: { maxCount: 10 } } });
  const deps = { ...world.deps, platforms: createPlatformRegistry([tiktok.adapter, instagram.adapter, world.discord.adapter]) };
  const { account } = await world.operator();
  await createProfile(deps, account, { username: 'alice' });
  for (const p of ['tiktok', 'instagram', 'discord'] as const) await connectWithCredentials(deps, account, p, { profile_username: 'alice', secret: 'good' });
  const post = (over: Partial<UploadInput>): UploadInput => ({
    kind: 'video', profileUsername: 'alice', platforms: ['tiktok'], title: 'clip', media: [clip], fields: {}, async: true, warnings: [], syncTimeoutMs: 1000, ...over,
  });
  return { world, deps, account, tiktok, instagram, post };
}

describe('media uploads at intake', () => {
  it('checks media limits, settings and endpoint rules per platform, naming each violation', async () => {
    const { deps, account, post } = await mediaWorld();
    const err = await submitUpload(deps, account, post({ platforms: ['tiktok', 'instagram'], fields: { privacy_level: 'FRIENDS' } })).catch((e) => e);
    expect(err).toMatchObject({ kind: 'invalid_input' });
    expect(err.details.violations).toEqual([
      expect.objectContaining({ platform: 'tiktok', type: 'video_too_long', limit: 10, actual: 12 }),
      expect.objectContaining({ platform: 'tiktok', field: 'privacy_level', type: 'invalid_field', message: 'tiktok: privacy_level must be one of PUBLIC_TO_EVERYONE, SELF_ONLY' }),
    ]);
  });

  it('hands each platform its typed settings with defaults, and warns about fields nobody uses', async () => {
    const { deps, account, post, instagram } = await mediaWorld();
    const { upload } = await submitUpload(deps, account, post({
      kind: 'photo', platforms: ['instagram', 'tiktok'], media: [jpg, jpg], fields: { privacy_level: 'SELF_ONLY', disable_comment: 'true', colour: 'blue' },
    }));
    expect(upload.targets.map((t) => [t.platform, t.settings])).toEqual([
      ['instagram', {}], ['tiktok', { privacy_level: 'SELF_ONLY', disable_comment: true }],
    ]);
    expect(upload.warnings).toEqual(['Field "colour" is not used by instagram, tiktok on this endpoint and was ignored.']);
    expect(upload.content.media).toEqual([jpg, jpg]);
    void instagram;
  });

  it('warns that first_comment_media[] (reddit only) was ignored', async () => {
    const { deps, account, post } = await mediaWorld();
    const { upload } = await submitUpload(deps, account, post({ kind: 'photo', platforms: ['instagram'], media: [jpg], fields: { 'first_comment_media[]': jpg } }));
    expect(upload.warnings).toEqual(['first_comment_media[] applies to reddit first comments only and was ignored.']);
  });

  it('requires exactly one video on the video endpoint and photos on the photo endpoint', async () => {
    const { deps, account, post } = await mediaWorld();
    await expect(submitUpload(deps, account, post({ media: [] }))).rejects.toMatchObject({ details: { violations: [{ field: 'video' }] } });
    await expect(submitUpload(deps, account, post({ kind: 'photo', media: [] }))).rejects.toMatchObject({ details: { violations: [{ field: 'photos[]' }] } });
  });

  it('takes videos on the photo endpoint only for instagram and threads', async () => {
    const { deps, account, post } = await mediaWorld();
    const err = await submitUpload(deps, account, post({ kind: 'photo', platforms: ['instagram', 'tiktok'], media: [jpg, { ...clip, info: { ...clip.info!, durationSeconds: 5 } }] })).catch((e) => e);
    expect(err.details.violations).toEqual([expect.objectContaining({ platform: 'tiktok', type: 'video_not_allowed' })]);
  });

  it('refuses a platform that does not take the endpoint, before anything else', async () => {
    const { deps, account, post } = await mediaWorld();
    await expect(submitUpload(deps, account, post({ platforms: ['discord'] })))
      .rejects.toMatchObject({ kind: 'invalid_input', errorCode: 'platform_not_supported', details: { supported_platforms: ['tiktok', 'instagram'] } });
  });

  it('passes the media and settings through to the network', async () => {
    const { deps, account, post, tiktok } = await mediaWorld();
    const runner = createInlineUploadRunner(deps);
    const short = { ...clip, info: { ...clip.info!, durationSeconds: 8 } };
    const { upload, finished } = await submitUpload({ ...deps, runner }, account, post({ media: [short], title: 'hello', fields: { privacy_level: 'SELF_ONLY' }, async: false, syncTimeoutMs: 60_000 }));
    expect(finished).toBe(true);
    expect(upload.results.tiktok).toMatchObject({ success: true });
    expect(tiktok.posts.map((p) => p.post)).toEqual([
      { kind: 'video', title: 'hello', media: [short], settings: { privacy_level: 'SELF_ONLY', disable_comment: false } },
    ]);
  });
});
