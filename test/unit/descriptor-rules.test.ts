import { youtubeDescriptor } from '../../adapters/platforms/youtube';
import { createProfile } from '../../core/usecases/profiles';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { submitUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { textLengthOf } from '../../core/ports/platform';
import { fakeTextPlatform } from '../support/fake-platform';
import { aWorld } from '../support/world';

/** Intake reads each network's rules from its descriptor, the same rules the adapter applies. */
async function worldWith(...platforms: ReturnType<typeof fakeTextPlatform>[]) {
  const world = aWorld({ platforms: platforms.map((p) => p.adapter) });
  const { deps } = world;
  const { account } = await world.operator();
  await createProfile(deps, account, { username: 'alice' });
  for (const p of platforms) await connectWithCredentials(deps, account, p.adapter.descriptor.id, { profile_username: 'alice', secret: 'good' });
  return { world, deps, account };
}

const text = (platforms: UploadInput['platforms'], title: string): UploadInput => ({
  kind: 'text', profileUsername: 'alice', platforms, title, media: [], fields: {}, async: false, warnings: [], syncTimeoutMs: 5_000,
});

const thumbs = '👍🏽'.repeat(60); // 60 graphemes, 120 code points

describe('network rules from descriptors', () => {
  it("counts a text the network's way: 60 thumbs are 120 code points, over a 100 code-point limit, at intake", async () => {
    const byCodePoints = fakeTextPlatform('discord', { textMaxChars: 100 });
    const { deps, account } = await worldWith(byCodePoints);
    await expect(submitUpload(deps, account, text(['discord'], thumbs))).rejects.toMatchObject({
      kind: 'invalid_input',
      details: { violations: [expect.objectContaining({ platform: 'discord', type: 'text_too_long', limit: 100, length: 120 })] },
    });
    expect(byCodePoints.posts).toEqual([]);
  });

  it('lets a grapheme-counting network take the same text', async () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const byGraphemes = fakeTextPlatform('bluesky', { limits: { textMaxChars: 100, textLength: (s) => [...segmenter.segment(s)].length } });
    const { deps, account } = await worldWith(byGraphemes);
    const { upload } = await submitUpload(deps, account, text(['bluesky'], thumbs));
    expect(upload.status).toBe('completed');
    expect(byGraphemes.posts.map((p) => p.text)).toEqual([thumbs]);
  });

  it('YouTube counts its title in code points (the adapter refuses 120 after a 202 otherwise)', () => {
    expect(textLengthOf(youtubeDescriptor, thumbs)).toBe(120);
    expect(youtubeDescriptor.limits.textMaxChars).toBe(100);
  });

  it('applies the daily cap of the descriptor', async () => {
    const capped = fakeTextPlatform('threads', { rules: { dailyCap: 2 } });
    const { deps, account } = await worldWith(capped);
    await submitUpload(deps, account, text(['threads'], 'one'));
    await submitUpload(deps, account, text(['threads'], 'two'));
    await expect(submitUpload(deps, account, text(['threads'], 'three'))).rejects.toMatchObject({
      kind: 'too_many_requests', errorCode: 'daily_cap_reached',
      details: { violations: [expect.objectContaining({ platform: 'threads', type: 'hard_cap', cap: 2, used_last_24h: 2 })] },
    });
  });

  it("refuses a network the plan excludes, with the network's code", async () => {
    const gated = fakeTextPlatform('tiktok', { rules: { excludedPlans: ['free'] } });
    const world = aWorld({ platforms: [gated.adapter] });
    const { deps } = world;
    const { account } = await world.operator('free');
    await createProfile(deps, account, { username: 'alice' });
    await expect(submitUpload(deps, account, text(['tiktok'], 'hi'))).rejects.toMatchObject({ kind: 'forbidden', errorCode: 'tiktok_not_in_plan' });
  });
});
