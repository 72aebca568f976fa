import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { createProfile } from '../../core/usecases/profiles';
import { submitUpload, type UploadInput } from '../../core/usecases/submit-upload';
import { fakeTextPlatform } from '../support/fake-platform';
import { aWorld } from '../support/world';

async function limitsWorld(plan: string) {
  const world = aWorld();
  const x = fakeTextPlatform('x');
  const tiktok = fakeTextPlatform('tiktok', { endpoints: ['text', 'video', 'photo'] });
  const deps = { ...world.deps, platforms: createPlatformRegistry([x.adapter, tiktok.adapter, world.discord.adapter]) };
  const { account } = await world.operator(plan);
  await createProfile(deps, account, { username: 'alice' });
  for (const p of ['x', 'discord'] as const) await connectWithCredentials(deps, account, p, { profile_username: 'alice', secret: 'good' });
  const post = (over: Partial<UploadInput> = {}): UploadInput => ({
    kind: 'text', profileUsername: 'alice', platforms: ['discord'], title: 'hi', media: [], fields: {}, async: true, warnings: [], syncTimeoutMs: 100, ...over,
  });
  return { world, deps, account, post };
}

describe('plan limits and caps', () => {
  it('stops the free plan at 10 uploads a month with 429 and the usage', async () => {
    const { deps, account, post, world } = await limitsWorld('free');
    for (let i = 0; i < 10; i += 1) await submitUpload(deps, account, post());
    await expect(submitUpload(deps, account, post())).rejects.toMatchObject({
      kind: 'too_many_requests', errorCode: 'monthly_quota_exceeded', details: { usage: { used: 10, limit: 10, plan: 'free' } },
    });
    // A new month starts a new count.
    world.advance(32 * 24 * 3600_000);
    await expect(submitUpload(deps, account, post())).resolves.toBeDefined();
  });

  it('refuses TikTok on the free plan with 403', async () => {
    const { deps, account, post } = await limitsWorld('free');
    await expect(submitUpload(deps, account, post({ platforms: ['tiktok'] }))).rejects.toMatchObject({ kind: 'forbidden', errorCode: 'tiktok_not_in_plan' });
  });

  it('caps one connected account at its daily cap over a rolling 24 hours, with the spec body', async () => {
    const { deps, account, post, world } = await limitsWorld('business');
    for (let i = 0; i < 50; i += 1) {
      await submitUpload(deps, account, post({ platforms: ['x'] }));
      world.advance(60_000);
    }
    const err = await submitUpload(deps, account, post({ platforms: ['x', 'discord'] })).catch((e) => e);
    expect(err).toMatchObject({ kind: 'too_many_requests', errorCode: 'daily_cap_reached', details: { violations: [{ platform: 'x', type: 'hard_cap', used_last_24h: 50, cap: 50 }] } });
    // Discord has no cap; once the oldest posts leave the 24-hour window, x takes posts again.
    await expect(submitUpload(deps, account, post({ platforms: ['discord'] }))).resolves.toBeDefined();
    world.advance(24 * 3600_000 - 49 * 60_000);
    await expect(submitUpload(deps, account, post({ platforms: ['x'] }))).resolves.toBeDefined();
  });
});
