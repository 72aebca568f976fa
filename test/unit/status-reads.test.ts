import { createMemoryUploadVersions } from '../../adapters/memory/upload-versions';
import { anApiServer } from '../support/api-app';

/**
 * Status reads cached by two API processes over one store (issue 29 e): a write on one is seen by
 * the next read on the other at once, and an answer is reused only while nothing changed.
 */
describe('status reads after a write, across API processes', () => {
  let a: Awaited<ReturnType<typeof anApiServer>>;
  let b: Awaited<ReturnType<typeof anApiServer>>;
  beforeAll(async () => {
    // A minute of cache: anything stale would still be served when the test reads.
    a = await anApiServer({ statusCacheMs: 60_000, uploadVersions: createMemoryUploadVersions() });
    b = await anApiServer({ sharing: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
  const status = (server: typeof a, query: string) => server.send({ method: 'GET', path: `/api/herald/status?${query}` });
  const schedule = async (title: string) => {
    const res = await a.json('POST', '/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title, scheduled_date: '2026-03-01T10:00:00Z' });
    expect(res.status).toBe(202);
    return res.json.job_id as string;
  };

  it('an edit on one process shows on the next read on the other', async () => {
    const jobId = await schedule('before the edit');
    expect((await status(b, `job_id=${jobId}`)).json).toMatchObject({ title: 'before the edit', scheduled_date: '2026-03-01T10:00:00.000Z' });
    const edited = await a.json('PATCH', `/api/herald/schedule/${jobId}`, { title: 'after the edit', scheduled_date: '2026-03-02T10:00:00Z' });
    expect(edited.status).toBe(200);
    const after = await status(b, `job_id=${jobId}`);
    expect(after.json).toMatchObject({ title: 'after the edit', scheduled_date: '2026-03-02T10:00:00.000Z' });
    expect(after.headers['cache-control']).toBe('private, no-cache');
  });

  it('a cancel on one process shows on the next read on the other', async () => {
    const jobId = await schedule('to be cancelled');
    expect((await status(b, `job_id=${jobId}`)).json.status).toBe('scheduled');
    expect((await a.send({ method: 'DELETE', path: `/api/herald/schedule/${jobId}` })).status).toBe(200);
    expect((await status(b, `job_id=${jobId}`)).json.status).toBe('cancelled');
  });

  it('a retry on one process shows on the next read on the other', async () => {
    a.world.discord.failNext({ kind: 'invalid_content' }, 'refused once');
    const sent = await a.json('POST', '/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title: 'retried' });
    expect(sent.status).toBe(200);
    const requestId = sent.json.request_id as string;
    expect((await status(b, `request_id=${requestId}`)).json.summary).toMatchObject({ failed: 1 });
    expect((await a.json('POST', '/api/herald/posts/retry', { request_id: requestId })).status).toBe(202);
    // Set aside for the retry, or already sent again: either way no longer the failure read before.
    expect((await status(b, `request_id=${requestId}`)).json.summary).toMatchObject({ failed: 0 });
    await a.world.runner.settled();
    expect((await status(b, `request_id=${requestId}`)).json).toMatchObject({ status: 'completed', all_succeeded: true });
  });

  it('reuses an answer while nothing of the account changed', async () => {
    const jobId = await schedule('read twice');
    const reads = jest.spyOn(a.world.deps.storage.uploads, 'findByJobId');
    try {
      const first = await status(b, `job_id=${jobId}`);
      const second = await status(b, `job_id=${jobId}`);
      expect(second.json).toEqual(first.json);
      expect(reads).toHaveBeenCalledTimes(1);
      // Past the cache time the answer is read again.
      a.world.advance(60_000);
      await status(b, `job_id=${jobId}`);
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });
});
