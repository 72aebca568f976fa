import { DuplicateKeyError, type UploadRepository, type UploadHistoryQuery } from '../../../core/ports/storage';
import type { UploadRequest } from '../../../core/domain/upload';
import { aTargetResult, anUpload, at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** The behaviour every UploadRepository adapter must show. Each test gets a fresh, empty one from `make`. */
export function uploadsContract(name: string, make: MakeRepository<UploadRepository>): void {
  describe(`Storage contract: ${name}`, () => {
    let uploads: UploadRepository;
    freshForEachTest(make, (repository) => {
      uploads = repository;
    });

    describe('uploads', () => {
      const insert = async (overrides: Partial<UploadRequest> = {}): Promise<UploadRequest> => {
        const upload = anUpload({ accountId: 'acct-1', ...overrides });
        await uploads.insert(upload);
        return upload;
      };
      const mustFind = async (requestId: string, accountId = 'acct-1'): Promise<UploadRequest> => {
        const found = await uploads.find(accountId, requestId);
        if (!found) throw new Error(`upload ${requestId} not found`);
        return found;
      };

      const ids = async (query: Omit<UploadHistoryQuery, 'page' | 'limit'> & Partial<UploadHistoryQuery>) => {
        const { items, total } = await uploads.history({ page: 1, limit: 100, ...query });
        return { ids: items.map((u) => u.requestId), total };
      };

      it('post operations: found by the post id (the published one, or the one an edit gave it), stored insert-only and read back with the upload', async () => {
        const upload = await insert({ targets: [
          { platform: 'x', connectedAccountId: 'c-x', title: 'Hi', settings: {} },
          { platform: 'linkedin', connectedAccountId: 'c-l', title: 'Hi', settings: {} },
        ] });
        await uploads.recordResult('acct-1', upload.requestId, aTargetResult({ platform: 'x', post_id: '100' }), at(1));
        await uploads.recordResult('acct-1', upload.requestId, aTargetResult({ platform: 'linkedin', post_id: 'urn:li:share:1' }), at(1));
        expect((await uploads.findByPostId('acct-1', 'x', '100'))?.requestId).toBe(upload.requestId);
        expect(await uploads.findByPostId('acct-1', 'linkedin', '100')).toBeNull();
        expect(await uploads.findByPostId('acct-2', 'x', '100')).toBeNull();
        await uploads.recordPostOperation({ id: 'op-1', accountId: 'acct-1', requestId: upload.requestId, platform: 'x', action: 'edit', postId: '100', resultPostId: '101', updated: ['message'], at: at(2) });
        await uploads.recordPostOperation({ id: 'op-2', accountId: 'acct-1', requestId: upload.requestId, platform: 'linkedin', action: 'unpublish', postId: 'urn:li:share:1', at: at(3) });
        expect((await uploads.findByPostId('acct-1', 'x', '101'))?.requestId).toBe(upload.requestId);
        const found = await mustFind(upload.requestId);
        expect([...(found.operations ?? [])].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
          { id: 'op-1', accountId: 'acct-1', requestId: upload.requestId, platform: 'x', action: 'edit', postId: '100', resultPostId: '101', updated: ['message'], at: at(2) },
          { id: 'op-2', accountId: 'acct-1', requestId: upload.requestId, platform: 'linkedin', action: 'unpublish', postId: 'urn:li:share:1', at: at(3) },
        ]);
        // The results stay as published; the history read carries the operations too.
        expect(found.results.x?.post_id).toBe('100');
        const { items } = await uploads.history({ accountId: 'acct-1', requestId: upload.requestId, page: 1, limit: 10 });
        expect(items[0]!.operations).toHaveLength(2);
      });

      it('stores an upload and finds it by request id and by job id, exactly as given', async () => {
        const upload = await insert({
          jobId: 'job-1',
          externalId: 'ext-1',
          targets: [
            { platform: 'x', connectedAccountId: 'c-x', title: 'Hi X', settings: { reply_settings: 'everyone' } },
            { platform: 'bluesky', connectedAccountId: 'c-b', title: 'Hi Bluesky', settings: {} },
          ],
          content: { title: 'Hi', description: 'longer' },
          warnings: ['w1'],
        });

        const found = await mustFind(upload.requestId);

        expect(found).toEqual(upload);
        expect(found.createdAt).toBeInstanceOf(Date);
        expect(found).not.toHaveProperty('_id');
        expect(found).not.toHaveProperty('platforms');
        expect(await uploads.findByJobId('acct-1', 'job-1')).toEqual(upload);
        expect(await uploads.findByJobId('acct-2', 'job-1')).toBeNull();
        expect(await uploads.find('acct-2', upload.requestId)).toBeNull();
      });

      it('leaves optional fields absent when they were not given', async () => {
        const upload = await insert({ externalId: undefined, jobId: undefined });

        const found = await mustFind(upload.requestId);

        for (const field of ['externalId', 'jobId', 'startedAt', 'completedAt']) {
          expect(found).not.toHaveProperty(field);
        }
        expect(found.results).toEqual({});
        expect(found.dispatches).toEqual({});
      });

      it('rejects a second upload with the same request id in the same account', async () => {
        const first = await insert({ requestId: 'req-same' });

        await expect(uploads.insert(anUpload({ accountId: 'acct-1', requestId: 'req-same' }))).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(await mustFind('req-same')).toEqual(first);
      });

      it('allows the same request id under another account', async () => {
        const mine = await insert({ requestId: 'req-same' });
        const theirs = await insert({ accountId: 'acct-2', requestId: 'req-same', profileUsername: 'other' });

        expect(await mustFind('req-same', 'acct-1')).toEqual(mine);
        expect(await mustFind('req-same', 'acct-2')).toEqual(theirs);
      });

      it('goes pending → in_progress → completed with dispatches and results', async () => {
        const upload = await insert({
          targets: [
            { platform: 'x', connectedAccountId: 'c-x', title: 'Hi', settings: {} },
            { platform: 'linkedin', connectedAccountId: 'c-l', title: 'Hi', settings: {} },
          ],
        });
        const xResult = aTargetResult({ platform: 'x', post_id: 'x-1', tweet_id: 'x-1' });
        const liResult = aTargetResult({
          platform: 'linkedin',
          success: false,
          post_id: undefined,
          url: undefined,
          error: 'rejected',
          error_code: 'invalid_content',
          warnings: ['too long'],
        });

        await uploads.markInProgress('acct-1', upload.requestId, at(1));
        expect(await mustFind(upload.requestId)).toEqual({
          ...upload,
          status: 'in_progress',
          startedAt: at(1),
          updatedAt: at(1),
        });

        await uploads.recordDispatch('acct-1', upload.requestId, 'x', 1, at(2));
        await uploads.recordDispatch('acct-1', upload.requestId, 'linkedin', 1, at(2));
        await uploads.recordResult('acct-1', upload.requestId, xResult, at(3));
        await uploads.recordDispatch('acct-1', upload.requestId, 'linkedin', 2, at(4));
        await uploads.recordResult('acct-1', upload.requestId, liResult, at(5));
        await uploads.markCompleted('acct-1', upload.requestId, at(6));

        const done = await mustFind(upload.requestId);
        const { post_id: _p, url: _u, ...liStored } = liResult;
        void _p;
        void _u;
        expect(done).toEqual({
          ...upload,
          status: 'completed',
          startedAt: at(1),
          completedAt: at(6),
          updatedAt: at(6),
          dispatches: { x: { attempt: 1, at: at(2) }, linkedin: { attempt: 2, at: at(4) } },
          results: { x: xResult, linkedin: liStored },
        });
        expect(done.results.linkedin).not.toHaveProperty('post_id');
        expect(done.dispatches.x?.at).toBeInstanceOf(Date);
      });

      it('begin: the upload as the move left it when this call made the move, else only the status', async () => {
        const upload = await insert();
        const begun = await uploads.begin('acct-1', upload.requestId, at(1));
        expect(begun).toEqual({ status: 'in_progress', upload: { ...upload, status: 'in_progress', startedAt: at(1), updatedAt: at(1) } });
        expect(begun!.upload).toEqual(await mustFind(upload.requestId));
        // Already begun (a repeated start): the status only, the caller reads what is stored.
        expect(await uploads.begin('acct-1', upload.requestId, at(2))).toEqual({ status: 'in_progress' });
        await uploads.recordResult('acct-1', upload.requestId, aTargetResult({ platform: 'x', success: false, error: 'no', error_code: 'invalid_content' }), at(3));
        await uploads.markCompleted('acct-1', upload.requestId, at(4));
        expect(await uploads.begin('acct-1', upload.requestId, at(5))).toEqual({ status: 'completed' });
        // A retried upload begun again comes with what it holds (its earlier results set aside).
        expect(await uploads.resetForRetry('acct-1', upload.requestId, ['x'], at(6))).toBe(1);
        const again = await uploads.begin('acct-1', upload.requestId, at(7));
        expect(again).toEqual({ status: 'in_progress', upload: await mustFind(upload.requestId) });
        expect(await uploads.begin('acct-1', 'no-such-request', at(8))).toBeNull();
      });

      it('moves to in_progress only from pending', async () => {
        const upload = await insert();
        await uploads.markInProgress('acct-1', upload.requestId, at(1));

        await uploads.markInProgress('acct-1', upload.requestId, at(2));
        expect(await mustFind(upload.requestId)).toMatchObject({ status: 'in_progress', startedAt: at(1), updatedAt: at(1) });

        await uploads.markCompleted('acct-1', upload.requestId, at(3));
        await uploads.markInProgress('acct-1', upload.requestId, at(4));
        expect(await mustFind(upload.requestId)).toMatchObject({
          status: 'completed',
          startedAt: at(1),
          completedAt: at(3),
          updatedAt: at(3),
        });
      });

      it('completes a pending upload directly and completes only once', async () => {
        const upload = await insert();

        await uploads.markCompleted('acct-1', upload.requestId, at(1));
        await uploads.markCompleted('acct-1', upload.requestId, at(2));

        const found = await mustFind(upload.requestId);
        expect(found).toEqual({ ...upload, status: 'completed', completedAt: at(1), updatedAt: at(1) });
        expect(found).not.toHaveProperty('startedAt');
      });

      it('counts uploads per operator and per connected account since a time, cancelled ones excluded', async () => {
        const target = (c: string) => ({ platform: 'x' as const, connectedAccountId: c, title: 't', settings: {} });
        await insert({ createdAt: at(1), targets: [target('c1')] });
        await insert({ createdAt: at(5), targets: [target('c1'), { ...target('c2'), platform: 'threads' as const }] });
        await insert({ createdAt: at(9), targets: [target('c2')], status: 'cancelled' });
        await insert({ accountId: 'acct-2', createdAt: at(9), targets: [target('c1')] });
        expect(await uploads.countSince('acct-1', at(0))).toBe(2);
        expect(await uploads.countSince('acct-1', at(2))).toBe(1);
        expect(await uploads.countForConnection('c1', at(0), at(60))).toBe(3);
        expect(await uploads.countForConnection('c1', at(5), at(60))).toBe(2);
        expect(await uploads.countForConnection('c1', at(0), at(4))).toBe(1);
        expect(await uploads.countForConnection('c2', at(0), at(60))).toBe(1);
      });

      it('counts a scheduled post against the caps at its scheduled time, across UTC days, leaving one request out on demand', async () => {
        const target = (c: string) => ({ platform: 'x' as const, connectedAccountId: c, title: 't', settings: {} });
        const day = 24 * 60;
        await insert({ requestId: 'now', createdAt: at(0), targets: [target('c1')] });
        await insert({ requestId: 'later', createdAt: at(0), status: 'scheduled', scheduledFor: at(day + 30), targets: [target('c1')] });
        await insert({ requestId: 'much-later', createdAt: at(0), status: 'scheduled', scheduledFor: at(40 * day), targets: [target('c1')] });
        expect(await uploads.countForConnection('c1', at(-10), at(10))).toBe(1);
        expect(await uploads.countForConnection('c1', at(10), at(day + 30))).toBe(1);
        expect(await uploads.countForConnection('c1', at(-10), at(day + 30))).toBe(2);
        expect(await uploads.countForConnection('c1', at(-10), at(day + 30), 'later')).toBe(1);
        // A window longer than a few days is counted in one go.
        expect(await uploads.countForConnection('c1', at(-10), at(41 * day))).toBe(3);
      });

      it('replaces the media of an upload once its URLs are fetched', async () => {
        const pending = { id: '', kind: 'video' as const, contentType: '', size: 0, source: { url: 'https://cdn.example/v.mp4', field: 'video' } };
        const up = await insert({ requestId: 'urls', content: { title: 't', media: [pending] } });
        const fetched = { id: 'sha-1', kind: 'video' as const, contentType: 'video/mp4', size: 123, filename: 'v.mp4', source: pending.source,
          info: { durationSeconds: 3, width: 640, height: 360, frameRate: 30, videoCodec: 'h264', audioCodec: null, container: 'mov,mp4' } };
        expect(await uploads.setMedia('acct-1', 'urls', [fetched], at(2))).toBe(true);
        expect(await mustFind('urls')).toEqual({ ...up, content: { title: 't', media: [fetched] }, updatedAt: at(2) });
        expect(await uploads.setMedia('acct-1', 'nope', [fetched], at(2))).toBe(false);
      });

      it('postpones a scheduled upload with a warning, giving up its queue slot, and only while it is scheduled', async () => {
        const up = await insert({ requestId: 'sched', status: 'scheduled', scheduledFor: at(10), queueSlot: at(10), warnings: ['earlier'] });
        expect(await uploads.postponeScheduled('acct-1', 'sched', at(1450), 'moved', at(11))).toBe(true);
        const found = await mustFind('sched');
        expect(found).toEqual({ ...up, queueSlot: undefined, scheduledFor: at(1450), warnings: ['earlier', 'moved'], updatedAt: at(11) });
        expect(found).not.toHaveProperty('queueSlot');
        expect(await uploads.countForConnection(up.targets[0]!.connectedAccountId, at(1400), at(1500))).toBe(1);
        await uploads.markInProgress('acct-1', 'sched', at(1450));
        expect(await uploads.postponeScheduled('acct-1', 'sched', at(3000), 'again', at(1451))).toBe(false);
        expect((await mustFind('sched')).scheduledFor).toEqual(at(1450));
      });

      it('sets failed results aside for a retry of a completed upload, and only then', async () => {
        const up = await insert({ targets: [
          { platform: 'x', connectedAccountId: 'c1', title: 't', settings: {} },
          { platform: 'threads', connectedAccountId: 'c2', title: 't', settings: {} },
        ] });
        await uploads.recordResult('acct-1', up.requestId, aTargetResult({ platform: 'x' }), at(1));
        await uploads.recordResult('acct-1', up.requestId, aTargetResult({ platform: 'threads', success: false, error: 'no' }), at(1));
        expect(await uploads.resetForRetry('acct-1', up.requestId, ['threads'], at(2))).toBeNull();
        await uploads.markCompleted('acct-1', up.requestId, at(3));
        expect(await uploads.resetForRetry('acct-1', up.requestId, ['threads'], at(4))).toBe(1);
        const found = await mustFind(up.requestId);
        expect(found).toMatchObject({ status: 'pending', retryCount: 1 });
        expect(found).not.toHaveProperty('completedAt');
        expect(Object.keys(found.results)).toEqual(['x']);
        await uploads.recordResult('acct-1', up.requestId, aTargetResult({ platform: 'threads', post_id: 'again' }), at(5));
        expect((await mustFind(up.requestId)).results.threads?.post_id).toBe('again');
      });

      it('runs a scheduled upload, or cancels it, but never both', async () => {
        const a = await insert({ status: 'scheduled', jobId: 'job-a', scheduledFor: at(60), timezone: 'Europe/Paris' });
        const b = await insert({ status: 'scheduled', jobId: 'job-b', scheduledFor: at(60) });
        expect(await uploads.markInProgress('acct-1', a.requestId, at(60))).toBe('in_progress');
        expect(await uploads.cancelScheduled('acct-1', a.requestId, at(61))).toBe(false);
        expect(await uploads.cancelScheduled('acct-1', b.requestId, at(30))).toBe(true);
        expect(await uploads.markInProgress('acct-1', b.requestId, at(60))).toBe('cancelled');
        expect(await uploads.markInProgress('acct-1', 'no-such', at(60))).toBeNull();
        expect(await mustFind(b.requestId)).toMatchObject({ status: 'cancelled', completedAt: at(30), jobId: 'job-b' });
        expect(await uploads.findByJobId('acct-1', 'job-a')).toMatchObject({ status: 'in_progress', timezone: 'Europe/Paris', scheduledFor: at(60) });
      });

      it('edits a scheduled upload only while it is scheduled', async () => {
        const up = await insert({ status: 'scheduled', jobId: 'job-e', scheduledFor: at(60), fields: { x_title: 'a' } });
        const patch = {
          scheduledFor: at(90), timezone: 'UTC', content: { title: 'new' }, fields: { x_title: 'b' },
          targets: [{ platform: 'x' as const, connectedAccountId: 'conn-x', title: 'b', settings: { reply_settings: 'following' } }],
        };
        expect(await uploads.updateScheduled('acct-1', up.requestId, patch, at(2))).toBe(true);
        expect(await mustFind(up.requestId)).toMatchObject({ ...patch, status: 'scheduled', updatedAt: at(2) });
        await uploads.markInProgress('acct-1', up.requestId, at(90));
        expect(await uploads.updateScheduled('acct-1', up.requestId, { ...patch, content: { title: 'late' } }, at(91))).toBe(false);
        expect((await mustFind(up.requestId)).content.title).toBe('new');
      });

      it('keeps the first result of a target', async () => {
        const upload = await insert();
        const first = aTargetResult({ platform: 'x', post_id: 'first' });
        const second = aTargetResult({ platform: 'x', post_id: 'second', success: false, error: 'late' });

        expect(await uploads.recordResult('acct-1', upload.requestId, first, at(1))).toEqual(first);
        // The later one is not stored, and the caller learns which result stands.
        expect(await uploads.recordResult('acct-1', upload.requestId, second, at(2))).toEqual(first);

        expect(await mustFind(upload.requestId)).toEqual({ ...upload, results: { x: first } });
      });

      it('finds which upload published a platform post id, per account and network, successes only', async () => {
        const upload = await insert();
        await uploads.recordResult('acct-1', upload.requestId, aTargetResult({ platform: 'x', post_id: '1790' }), at(1));
        const failed = await insert({ requestId: 'req-failed' });
        await uploads.recordResult('acct-1', failed.requestId, aTargetResult({ platform: 'threads', post_id: '55', success: false, error: 'no' }), at(1));
        expect(await uploads.findRequestIdByPostId('acct-1', 'x', '1790')).toBe(upload.requestId);
        expect(await uploads.findRequestIdByPostId('acct-2', 'x', '1790')).toBeNull();
        expect(await uploads.findRequestIdByPostId('acct-1', 'threads', '1790')).toBeNull();
        expect(await uploads.findRequestIdByPostId('acct-1', 'threads', '55')).toBeNull();
      });

      it('keeps every result when the targets of one upload finish at the same moment', async () => {
        // FerretDB loses concurrent updates of one document: per-target writes must not share one.
        const platforms = ['x', 'linkedin', 'discord', 'telegram', 'bluesky', 'threads', 'facebook', 'instagram'] as const;
        const upload = await insert({
          targets: platforms.map((platform) => ({ platform, connectedAccountId: `conn-${platform}`, title: 't', settings: {} })),
        });
        await Promise.all(platforms.map(async (platform, i) => {
          await uploads.recordDispatch('acct-1', upload.requestId, platform, 1, at(i));
          await uploads.recordResult('acct-1', upload.requestId, aTargetResult({ platform, post_id: `p-${platform}` }), at(i));
        }));
        const found = await mustFind(upload.requestId);
        expect(Object.keys(found.results).sort()).toEqual([...platforms].sort());
        expect(Object.keys(found.dispatches).sort()).toEqual([...platforms].sort());
        expect(found.results.telegram?.post_id).toBe('p-telegram');
      });

      it('keeps exactly one result when two results of a target race', async () => {
        const upload = await insert();
        const one = aTargetResult({ platform: 'x', post_id: 'one' });
        const two = aTargetResult({ platform: 'x', post_id: 'two' });

        const answers = await Promise.all([
          uploads.recordResult('acct-1', upload.requestId, one, at(1)),
          uploads.recordResult('acct-1', upload.requestId, two, at(2)),
        ]);

        const stored = (await mustFind(upload.requestId)).results.x;
        expect([one, two]).toContainEqual(stored);
        expect(answers).toEqual([stored, stored]);
      });

      it('records the latest dispatch of a target', async () => {
        const upload = await insert();

        await uploads.recordDispatch('acct-1', upload.requestId, 'x', 1, at(1));
        await uploads.recordDispatch('acct-1', upload.requestId, 'x', 2, at(2));

        expect(await mustFind(upload.requestId)).toEqual({
          ...upload,
          dispatches: { x: { attempt: 2, at: at(2) } },
        });
      });

      it('ignores lifecycle calls for an unknown upload or another account', async () => {
        const upload = await insert();

        await uploads.markInProgress('acct-2', upload.requestId, at(1));
        await uploads.recordDispatch('acct-2', upload.requestId, 'x', 1, at(1));
        await uploads.recordResult('acct-2', upload.requestId, aTargetResult(), at(1));
        await uploads.markCompleted('acct-2', upload.requestId, at(1));
        await uploads.markInProgress('acct-1', 'no-such-request', at(1));
        await uploads.recordResult('acct-1', 'no-such-request', aTargetResult(), at(1));
        await uploads.markCompleted('acct-1', 'no-such-request', at(1));

        expect(await mustFind(upload.requestId)).toEqual(upload);
        expect(await uploads.find('acct-2', upload.requestId)).toBeNull();
        expect(await uploads.find('acct-1', 'no-such-request')).toBeNull();
      });

      it('hands out copies', async () => {
        const upload = await insert({ warnings: ['w'] });
        const snapshot = structuredClone(upload);

        upload.targets[0]!.settings.mutated = true;
        upload.warnings.push('mutated');
        const found = await mustFind(snapshot.requestId);
        found.results.x = aTargetResult();
        found.content.title = 'mutated';
        found.createdAt.setTime(0);
        const { items } = await uploads.history({ accountId: 'acct-1', page: 1, limit: 10 });
        items[0]!.dispatches.x = { attempt: 9, at: at(9) };

        expect(await mustFind(snapshot.requestId)).toEqual(snapshot);
      });

      describe('history', () => {
        /** Five uploads of acct-1 at minutes 1..5 plus one of acct-2, varied on every filter. */
        const seed = async () => {
          const target = (platform: 'x' | 'bluesky' | 'linkedin') => ({
            platform,
            connectedAccountId: `c-${platform}`,
            title: 't',
            settings: {},
          });
          const u1 = await insert({ requestId: 'r1', createdAt: at(1), targets: [target('x')], jobId: 'j1' });
          const u2 = await insert({
            requestId: 'r2',
            createdAt: at(2),
            targets: [target('bluesky'), target('x')],
            profileUsername: 'bob',
            externalId: 'e2',
          });
          const u3 = await insert({ requestId: 'r3', createdAt: at(3), targets: [target('linkedin')], jobId: 'j3' });
          const u4 = await insert({
            requestId: 'r4',
            createdAt: at(4),
            targets: [target('bluesky')],
            profileUsername: 'bob',
            externalId: 'e4',
          });
          const u5 = await insert({ requestId: 'r5', createdAt: at(5), targets: [target('x'), target('linkedin')] });
          await insert({ accountId: 'acct-2', requestId: 'r6', createdAt: at(6), targets: [target('x')], jobId: 'j1' });
          await uploads.markInProgress('acct-1', 'r3', at(10));
          await uploads.markCompleted('acct-1', 'r4', at(10));
          await uploads.markCompleted('acct-1', 'r5', at(10));
          return {
            r1: u1,
            r2: u2,
            r3: { ...u3, status: 'in_progress' as const, startedAt: at(10), updatedAt: at(10) },
            r4: { ...u4, status: 'completed' as const, completedAt: at(10), updatedAt: at(10) },
            r5: { ...u5, status: 'completed' as const, completedAt: at(10), updatedAt: at(10) },
          };
        };

        it('lists the uploads of one account, newest first, as stored', async () => {
          const s = await seed();

          const { items, total } = await uploads.history({ accountId: 'acct-1', page: 1, limit: 10 });

          expect(total).toBe(5);
          expect(items).toEqual([s.r5, s.r4, s.r3, s.r2, s.r1]);
          expect(items[0]).not.toHaveProperty('platforms');
          expect(await ids({ accountId: 'acct-3' })).toEqual({ ids: [], total: 0 });
        });

        it('filters by platform among the targets', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', platform: 'x' })).toEqual({ ids: ['r5', 'r2', 'r1'], total: 3 });
          expect(await ids({ accountId: 'acct-1', platform: 'bluesky' })).toEqual({ ids: ['r4', 'r2'], total: 2 });
          expect(await ids({ accountId: 'acct-1', platform: 'linkedin' })).toEqual({ ids: ['r5', 'r3'], total: 2 });
          expect(await ids({ accountId: 'acct-1', platform: 'tiktok' })).toEqual({ ids: [], total: 0 });
        });

        it('filters by status', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', status: 'pending' })).toEqual({ ids: ['r2', 'r1'], total: 2 });
          expect(await ids({ accountId: 'acct-1', status: 'in_progress' })).toEqual({ ids: ['r3'], total: 1 });
          expect(await ids({ accountId: 'acct-1', status: 'completed' })).toEqual({ ids: ['r5', 'r4'], total: 2 });
        });

        it('filters by profile username', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', profileUsername: 'bob' })).toEqual({ ids: ['r4', 'r2'], total: 2 });
          expect(await ids({ accountId: 'acct-1', profileUsername: 'nobody' })).toEqual({ ids: [], total: 0 });
        });

        it('filters by creation time, start and end inclusive', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', start: at(2) })).toEqual({ ids: ['r5', 'r4', 'r3', 'r2'], total: 4 });
          expect(await ids({ accountId: 'acct-1', end: at(2) })).toEqual({ ids: ['r2', 'r1'], total: 2 });
          expect(await ids({ accountId: 'acct-1', start: at(2), end: at(4) })).toEqual({ ids: ['r4', 'r3', 'r2'], total: 3 });
          expect(await ids({ accountId: 'acct-1', start: at(2.5), end: at(2.75) })).toEqual({ ids: [], total: 0 });
        });

        it('filters by request id, job id and external id', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', requestId: 'r3' })).toEqual({ ids: ['r3'], total: 1 });
          expect(await ids({ accountId: 'acct-1', requestId: 'r6' })).toEqual({ ids: [], total: 0 });
          expect(await ids({ accountId: 'acct-1', jobId: 'j1' })).toEqual({ ids: ['r1'], total: 1 });
          expect(await ids({ accountId: 'acct-2', jobId: 'j1' })).toEqual({ ids: ['r6'], total: 1 });
          expect(await ids({ accountId: 'acct-1', externalId: 'e4' })).toEqual({ ids: ['r4'], total: 1 });
        });

        it('combines filters', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', platform: 'x', status: 'pending', profileUsername: 'bob' })).toEqual({
            ids: ['r2'],
            total: 1,
          });
          expect(await ids({ accountId: 'acct-1', platform: 'linkedin', start: at(4) })).toEqual({ ids: ['r5'], total: 1 });
        });

        it('pages with a 1-based page and limit, total counting every match', async () => {
          await seed();

          expect(await ids({ accountId: 'acct-1', page: 1, limit: 2 })).toEqual({ ids: ['r5', 'r4'], total: 5 });
          expect(await ids({ accountId: 'acct-1', page: 2, limit: 2 })).toEqual({ ids: ['r3', 'r2'], total: 5 });
          expect(await ids({ accountId: 'acct-1', page: 3, limit: 2 })).toEqual({ ids: ['r1'], total: 5 });
          expect(await ids({ accountId: 'acct-1', page: 4, limit: 2 })).toEqual({ ids: [], total: 5 });
          expect(await ids({ accountId: 'acct-1', platform: 'x', page: 2, limit: 2 })).toEqual({ ids: ['r1'], total: 3 });
        });
      });

      describe('lists over many hours (page and cursor forms)', () => {
        const target = (platform: 'x' | 'bluesky' | 'linkedin') => ({ platform, connectedAccountId: `c-${platform}`, title: 't', settings: {} });
        /** 40 uploads 37 minutes apart (about 25 hours), two profiles, varied networks and statuses. */
        const seedMany = async () => {
          const made: UploadRequest[] = [];
          for (let i = 0; i < 40; i += 1) {
            const platforms = (['x', 'bluesky', 'linkedin'] as const).filter((_, k) => (i + k) % 3 !== 0);
            made.push(await insert({
              requestId: `m-${String(i).padStart(2, '0')}`, createdAt: at(i * 37), profileUsername: i % 4 === 0 ? 'bob' : 'alice',
              targets: platforms.map(target), ...(i % 5 === 0 ? { externalId: 'batch' } : {}),
            }));
          }
          for (let i = 0; i < 40; i += 3) await uploads.markInProgress('acct-1', `m-${String(i).padStart(2, '0')}`, at(2000));
          for (let i = 0; i < 40; i += 6) await uploads.markCompleted('acct-1', `m-${String(i).padStart(2, '0')}`, at(2001));
          return made;
        };
        /** Every page by cursor: the ids in order, each page's total, and the number of pages. */
        const walk = async (query: Omit<UploadHistoryQuery, 'page' | 'limit'>, limit: number) => {
          const seen: string[] = [];
          const totals = new Set<number>();
          let after: UploadHistoryQuery['after'];
          let pages = 0;
          do {
            const page = await uploads.history({ ...query, page: 1, limit, ...(after ? { after } : {}) });
            seen.push(...page.items.map((u) => u.requestId));
            totals.add(page.total);
            after = page.next;
            pages += 1;
          } while (after && pages < 100);
          return { seen, totals: [...totals], pages };
        };
        const expected = (made: UploadRequest[], keep: (i: number, u: UploadRequest) => boolean) =>
          made.map((u, i) => [i, u] as const).filter(([i, u]) => keep(i, u)).map(([, u]) => u.requestId).reverse();
        const statusOf = (i: number) => (i % 6 === 0 ? 'completed' : i % 3 === 0 ? 'in_progress' : 'pending');

        it('walks every upload once, newest first, by cursor, for every filter and combination', async () => {
          const made = await seedMany();
          const cases: Array<[Omit<UploadHistoryQuery, 'page' | 'limit'>, (i: number, u: UploadRequest) => boolean]> = [
            [{ accountId: 'acct-1' }, () => true],
            [{ accountId: 'acct-1', status: 'pending' }, (i) => statusOf(i) === 'pending'],
            [{ accountId: 'acct-1', status: 'completed' }, (i) => statusOf(i) === 'completed'],
            [{ accountId: 'acct-1', platform: 'linkedin' }, (_, u) => u.targets.some((t) => t.platform === 'linkedin')],
            [{ accountId: 'acct-1', profileUsername: 'bob' }, (_, u) => u.profileUsername === 'bob'],
            [{ accountId: 'acct-1', profileUsername: 'alice', platform: 'x', status: 'in_progress' },
              (i, u) => u.profileUsername === 'alice' && u.targets.some((t) => t.platform === 'x') && statusOf(i) === 'in_progress'],
            [{ accountId: 'acct-1', start: at(5 * 37 + 1), end: at(30 * 37) }, (i) => i * 37 >= 5 * 37 + 1 && i * 37 <= 30 * 37],
            [{ accountId: 'acct-1', externalId: 'batch' }, (i) => i % 5 === 0],
            [{ accountId: 'acct-1', externalId: 'batch', status: 'completed' }, (i) => i % 5 === 0 && statusOf(i) === 'completed'],
          ];
          for (const [query, keep] of cases) {
            const want = expected(made, keep);
            const { seen, totals, pages } = await walk(query, 7);
            expect({ query, seen }).toEqual({ query, seen: want });
            expect({ query, totals }).toEqual({ query, totals: [want.length] });
            expect(pages).toBe(Math.max(1, Math.ceil(want.length / 7)));
          }
        });

        it('serves a middle and the last page in the page form, the same as the cursor form', async () => {
          const made = await seedMany();
          const all = expected(made, () => true);
          for (const page of [1, 3, 6]) {
            expect(await ids({ accountId: 'acct-1', page, limit: 7 })).toEqual({ ids: all.slice((page - 1) * 7, page * 7), total: 40 });
          }
          expect(await ids({ accountId: 'acct-1', page: 7, limit: 7 })).toEqual({ ids: [], total: 40 });
          const last = await uploads.history({ accountId: 'acct-1', page: 6, limit: 7 });
          expect(last.next).toBeUndefined();
          // A page before the last says where it stopped: its last item (hour bucket, sort time, id).
          const fifth = await uploads.history({ accountId: 'acct-1', page: 5, limit: 7 });
          const stop = fifth.items[fifth.items.length - 1]!;
          expect(fifth.next).toEqual({ hour: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}$/), t: stop.createdAt.getTime(), id: stop.requestId });
        });

        it('moves an upload between status lanes as it runs, is retried or cancelled, and counts it once', async () => {
          const upload = await insert({ requestId: 'lane', createdAt: at(100), targets: [target('x')] });
          const lane = async (status: UploadHistoryQuery['status']) => (await ids({ accountId: 'acct-1', status })).ids;
          expect(await lane('pending')).toEqual(['lane']);
          await uploads.markInProgress('acct-1', upload.requestId, at(101));
          expect([await lane('pending'), await lane('in_progress')]).toEqual([[], ['lane']]);
          await uploads.markCompleted('acct-1', upload.requestId, at(102));
          expect([await lane('in_progress'), await lane('completed')]).toEqual([[], ['lane']]);
          await uploads.resetForRetry('acct-1', upload.requestId, ['x'], at(103));
          expect([await lane('completed'), await lane('pending')]).toEqual([[], ['lane']]);
          expect((await ids({ accountId: 'acct-1' })).total).toBe(1);
          expect((await ids({ accountId: 'acct-1', platform: 'x', status: 'pending' })).total).toBe(1);
        });

        it('lists scheduled posts soonest first by page and cursor; started, cancelled, postponed and edited ones move', async () => {
          for (let i = 0; i < 12; i += 1) {
            await insert({ requestId: `s-${String(i).padStart(2, '0')}`, status: 'scheduled', jobId: `j-${i}`, createdAt: at(i), scheduledFor: at(5000 - i * 97), targets: [target('x')] });
          }
          const order = (ids: number[]) => ids.map((i) => `s-${String(i).padStart(2, '0')}`);
          const all = async (limit: number) => {
            const seen: string[] = [];
            let after: UploadHistoryQuery['after'];
            let total = -1;
            do {
              const page = await uploads.listScheduled('acct-1', { limit, ...(after ? { after } : {}) });
              seen.push(...page.items.map((u) => u.requestId));
              total = page.total;
              after = page.next;
            } while (after);
            return { seen, total };
          };
          expect(await all(5)).toEqual({ seen: order([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]), total: 12 });
          expect((await uploads.listScheduled('acct-1', { limit: 5, offset: 5 })).items.map((u) => u.requestId)).toEqual(order([6, 5, 4, 3, 2]));
          await uploads.markInProgress('acct-1', 's-11', at(6000));
          await uploads.cancelScheduled('acct-1', 's-00', at(6000));
          await uploads.postponeScheduled('acct-1', 's-10', at(9000), 'cap reached', at(6000));
          const s05 = await mustFind('s-05');
          await uploads.updateScheduled('acct-1', 's-05', { scheduledFor: at(100), timezone: 'UTC', content: s05.content, targets: [target('bluesky')], fields: {} }, at(6000));
          expect(await all(4)).toEqual({ seen: order([5, 9, 8, 7, 6, 4, 3, 2, 1, 10]), total: 10 });
          expect(await ids({ accountId: 'acct-1', platform: 'bluesky' })).toEqual({ ids: ['s-05'], total: 1 });
          expect(await ids({ accountId: 'acct-1', status: 'cancelled' })).toEqual({ ids: ['s-00'], total: 1 });
          expect(await uploads.listScheduled('acct-2', { limit: 5 })).toEqual({ items: [], total: 0 });
        });

        it('counts the caps of a connection exactly over windows that cut hours, following postponements and cancellations', async () => {
          for (let i = 0; i < 30; i += 1) await insert({ requestId: `c-${i}`, createdAt: at(i * 11), targets: [target('x')] });
          await insert({ requestId: 'later', status: 'scheduled', jobId: 'jl', createdAt: at(1), scheduledFor: at(100 * 11 + 5), targets: [target('x')] });
          const count = (from: number, to: number, exclude?: string) => uploads.countForConnection('c-x', at(from), at(to), exclude);
          expect(await count(0, 29 * 11)).toBe(30);
          expect(await count(23, 150)).toBe(11); // i = 3..13
          expect(await count(23, 150, 'c-5')).toBe(10);
          expect(await count(23, 150, 'c-29')).toBe(11);
          await uploads.cancelScheduled('acct-1', 'later', at(2));
          expect(await count(0, 2000)).toBe(30);
          await insert({ requestId: 'later2', status: 'scheduled', jobId: 'jl2', createdAt: at(1), scheduledFor: at(50), targets: [target('x')] });
          expect(await count(45, 55)).toBe(2); // c-5 at 55, later2 at 50
          await uploads.postponeScheduled('acct-1', 'later2', at(3000), 'cap', at(3));
          expect([await count(45, 55), await count(2990, 3010)]).toEqual([1, 1]);
          expect(await uploads.countForConnection('c-bluesky', at(0), at(5000))).toBe(0);
        });

        it('counts the monthly quota from a time inside an hour, cancelled ones excluded', async () => {
          for (let i = 0; i < 20; i += 1) await insert({ requestId: `q-${i}`, createdAt: at(i * 13) });
          await insert({ requestId: 'q-cancel', status: 'scheduled', jobId: 'jq', createdAt: at(200), scheduledFor: at(9000) });
          await uploads.cancelScheduled('acct-1', 'q-cancel', at(201));
          expect(await uploads.countSince('acct-1', at(0))).toBe(20);
          expect(await uploads.countSince('acct-1', at(70))).toBe(14); // i = 6..19
          expect(await uploads.countSince('acct-2', at(0))).toBe(0);
        });
      });

      it('lists stale pending uploads of every account, oldest first, up to the limit', async () => {
        const old1 = await insert({ requestId: 'old-1', createdAt: at(1) });
        const old2 = await insert({ accountId: 'acct-2', requestId: 'old-2', createdAt: at(2) });
        const old3 = await insert({ requestId: 'old-3', createdAt: at(3) });
        await insert({ requestId: 'started', createdAt: at(1) });
        await insert({ requestId: 'done', createdAt: at(1) });
        await insert({ requestId: 'at-cutoff', createdAt: at(10) });
        await insert({ requestId: 'fresh', createdAt: at(11) });
        await uploads.markInProgress('acct-1', 'started', at(4));
        await uploads.markCompleted('acct-1', 'done', at(4));

        expect(await uploads.listStalePending(at(10), 10)).toEqual([old1, old2, old3]);
        expect((await uploads.listStalePending(at(10), 2)).map((u) => u.requestId)).toEqual(['old-1', 'old-2']);
        expect(await uploads.listStalePending(at(1), 10)).toEqual([]);
      });

      it('orders uploads created at the same instant by request id, newest first, without page overlap', async () => {
        for (const requestId of ['s-b', 's-d', 's-a', 's-c']) await insert({ requestId, createdAt: at(1) });

        const page1 = await ids({ accountId: 'acct-1', page: 1, limit: 2 });
        const page2 = await ids({ accountId: 'acct-1', page: 2, limit: 2 });

        expect(page1).toEqual({ ids: ['s-d', 's-c'], total: 4 });
        expect(page2).toEqual({ ids: ['s-b', 's-a'], total: 4 });
      });
    });
  });
}
