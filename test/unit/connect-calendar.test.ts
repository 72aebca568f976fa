import { HeraldError } from '../../core/domain/errors';
import { calendarPosts, cancelProfilePost, moveProfilePost } from '../../core/usecases/connect-calendar';
import { aTargetResult, anUpload, at } from '../support/mothers';
import { aWorld } from '../support/world';

describe('connect calendar posts', () => {
  async function setup() {
    const world = aWorld();
    const { account } = await world.operator('business');
    const deps = { ...world.deps };
    const put = async (o: Parameters<typeof anUpload>[0]) => {
      const upload = anUpload({ accountId: account.id, profileUsername: 'alice', ...o });
      await world.deps.storage.uploads.insert(upload);
      return upload;
    };
    return { world, deps, account, put };
  }

  it('shows scheduled, queued and published posts of the profile in the range, with per-network status and links', async () => {
    const { deps, account, put } = await setup();
    await put({ requestId: 's', jobId: 'job-s', status: 'scheduled', scheduledFor: at(60), timezone: 'Europe/Paris' });
    await put({ requestId: 'q', jobId: 'job-q', status: 'scheduled', scheduledFor: at(120), queueSlot: at(120) });
    await put({
      requestId: 'p', status: 'completed', completedAt: at(10),
      targets: [{ platform: 'x', connectedAccountId: 'c1', title: 't', settings: {} }, { platform: 'discord', connectedAccountId: 'c2', title: 't', settings: {} }],
      results: { x: aTargetResult({ platform: 'x', url: 'https://x.example.test/1' }), discord: aTargetResult({ platform: 'discord', success: false, url: null, error: 'nope' } as never) },
    });
    await put({ requestId: 'c', jobId: 'job-c', status: 'cancelled', scheduledFor: at(30) });
    await put({ requestId: 'other', jobId: 'job-o', status: 'scheduled', scheduledFor: at(60), profileUsername: 'bob' });
    await put({ requestId: 'late', jobId: 'job-l', status: 'scheduled', scheduledFor: at(60 * 24 * 30) });

    const posts = await calendarPosts(deps, account, 'alice', { from: at(0), to: at(60 * 24) });
    expect(posts.map((p) => [p.requestId, p.status, p.editable])).toEqual([['p', 'partial', false], ['s', 'scheduled', true], ['q', 'queued', true]]);
    expect(posts[0]!.targets).toEqual([
      { platform: 'x', status: 'published', url: 'https://x.example.test/1' },
      { platform: 'discord', status: 'failed', error: 'nope' },
    ]);
    expect(posts[1]).toMatchObject({ jobId: 'job-s', timezone: 'Europe/Paris', at: at(60), targets: [{ platform: 'x', status: 'waiting' }] });
  });

  it("refuses to move or cancel another profile's post", async () => {
    const { deps, account, put } = await setup();
    await put({ requestId: 'other', jobId: 'job-o', status: 'scheduled', scheduledFor: at(60), profileUsername: 'bob' });
    const refused = (p: Promise<unknown>) => p.then(() => null, (err: HeraldError) => [err.kind, err.errorCode]);
    expect(await refused(moveProfilePost(deps, account, 'alice', 'job-o', { scheduledDate: '2026-01-02T10:00', timezone: 'UTC' }))).toEqual(['forbidden', 'not_owner']);
    expect(await refused(cancelProfilePost(deps, account, 'alice', 'job-o'))).toEqual(['forbidden', 'not_owner']);
    expect(await refused(cancelProfilePost(deps, account, 'alice', 'job-none'))).toEqual(['not_found', 'JOB_NOT_FOUND']);
    expect((await deps.storage.uploads.find(account.id, 'other'))?.status).toBe('scheduled');
  });
});
