import { codePointLength, textLengthOf } from '../../core/ports/platform';
import { createYoutubePlatform, youtubeDescriptor } from '../../adapters/platforms/youtube';
import { noMedia } from '../support/media-access';

/** 60 thumbs up with a skin tone: 60 graphemes, 120 code points. */
const THUMBS = '👍🏽'.repeat(60);

describe('YouTube descriptor text length (issue 8 b)', () => {
  it('counts the title in code points, as YouTube and the publisher do', () => {
    expect(youtubeDescriptor.limits.textLength).toBe(codePointLength);
    expect(textLengthOf(youtubeDescriptor, THUMBS)).toBe(120);
    expect(youtubeDescriptor.limits.textMaxChars).toBe(100);
    expect(textLengthOf(youtubeDescriptor, THUMBS)).toBeGreaterThan(youtubeDescriptor.limits.textMaxChars!);
  });

  it('the publisher refuses what the descriptor counts as too long, and takes 100 code points', async () => {
    const yt = createYoutubePlatform({ clientId: 'c', clientSecret: 's', fetch: () => Promise.reject(new Error('no network in this test')) });
    const video = { id: 'v', kind: 'video' as const, contentType: 'video/mp4', size: 10 };
    const ctx = { credentials: { access_token: 't' }, idempotencyKey: 'k', media: noMedia };
    const post = (title: string) => ({ kind: 'video' as const, title, media: [video], settings: {} });
    await expect(yt.publisher!.publish(ctx, post(THUMBS))).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'title_too_long' } });
    // 50 thumbs = 100 code points: past validation, the (absent) network is reached.
    await expect(yt.publisher!.publish(ctx, post('👍🏽'.repeat(50)))).rejects.toMatchObject({ failure: { kind: 'transient' } });
  });
});
