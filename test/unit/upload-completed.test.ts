import { emitUploadCompleted } from '../../core/usecases/run-upload';
import type { TargetResult, UploadRequest } from '../../core/domain/upload';
import { aWorld } from '../support/world';

/** upload_completed.result.publish_id is the network's publish id (TikTok), never the post id (issue 8 j). */
describe('upload_completed publish_id', () => {
  async function emitted(result: Partial<TargetResult>) {
    const world = aWorld();
    const { account } = await world.operator();
    const upload = {
      accountId: account.id, requestId: 'req-1', profileUsername: 'alice', mediaType: 'video',
      content: { title: 'Hello' }, targets: [], status: 'processing', async: true,
    } as unknown as UploadRequest;
    await emitUploadCompleted(world.deps, upload, { platform: 'discord', success: true, warnings: [], finished_at: new Date(0).toISOString(), ...result } as TargetResult);
    const [event] = world.notifier.events.filter((e) => e.event === 'upload_completed');
    return event!.result;
  }

  it('is null for a network without a publish id, while post_id carries the post', async () => {
    expect(await emitted({ post_id: 'discord-post-1' })).toMatchObject({ post_id: 'discord-post-1', publish_id: null });
  });

  it("is the adapter's extra.publish_id when the network has one", async () => {
    // The outcome's extra fields land on the stored target result (`...outcome.extra`).
    expect(await emitted({ platform: 'tiktok', post_id: '7391234567890123456', publish_id: 'v_pub_file~v2-1.123' }))
      .toMatchObject({ post_id: '7391234567890123456', publish_id: 'v_pub_file~v2-1.123' });
  });
});
