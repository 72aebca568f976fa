import { sumDeltas, type CounterDelta } from '../../../adapters/mongo/list-counters';
import { targetKeys, toUploadDoc, uploadCounterDeltas } from '../../../adapters/mongo/uploads';
import type { Platform } from '../../../core/domain/platforms';
import type { UploadRequest, UploadStatus } from '../../../core/domain/upload';
import type { MeasuredRequest, ScaleList, SeedContext, SeededAccount } from './plugin';

const NS = '/api/herald';
const BATCH = 500;
const SEED_PARALLEL = Number(process.env.SCALE_SEED_PARALLEL ?? '6');

/**
 * An upload as the API and the worker leave it: created at a random time over the months,
 * published (completed, with one target document per network holding its result), some
 * cancelled, a few scheduled ahead or still pending; one in ten with an external id (its own, as
 * an integrator keeps one per post).
 */
function makeUpload(ctx: SeedContext, account: SeededAccount, i: number): { upload: UploadRequest; targets: Array<Record<string, unknown>> } {
  const span = ctx.months * 30 * 24 * 3600_000;
  const createdAt = new Date(ctx.now.getTime() - Math.floor(ctx.random() * span) - 3600_000);
  const profile = account.profiles[i % account.profiles.length]!;
  const connections = account.connections[profile] ?? [];
  const picked = connections.filter((_, k) => k === i % connections.length || ctx.random() < 0.3);
  // By the upload's number, not by chance: every account holds the same shares (2 % pending, so that
  // the small account's 2,000 fill a pending page of 20 and the next one starts; random shares
  // left it 17).
  const slot = (i * 37) % 100;
  const status: UploadStatus = slot < 89 ? 'completed' : slot < 94 ? 'cancelled' : slot < 98 ? 'scheduled' : 'pending';
  const requestId = `seed-${account.role}-${i.toString(36)}-${Math.floor(ctx.random() * 1e9).toString(36)}`;
  const scheduledFor = status === 'scheduled' || status === 'cancelled' ? new Date(ctx.now.getTime() + Math.floor(ctx.random() * 60 * 24 * 3600_000)) : undefined;
  const upload: UploadRequest = {
    accountId: account.id, requestId, profileUsername: profile, mediaType: 'text',
    content: { title: `Seeded post ${i} of ${account.role}: a text of ordinary length, with a link https://example.test/${i}` },
    targets: picked.map((c) => ({ platform: c.platform as Platform, connectedAccountId: c.connectionId, title: `Seeded post ${i}`, settings: {} })),
    status, async: true, results: {}, dispatches: {}, warnings: [], createdAt, updatedAt: createdAt,
    ...(scheduledFor ? { scheduledFor, jobId: `job-${requestId}`, timezone: 'UTC' } : {}),
    ...(i % 10 === 0 ? { externalId: `ext-${account.role}-${i / 10}` } : {}),
    ...(status === 'completed' ? { startedAt: createdAt, completedAt: new Date(createdAt.getTime() + 4000) } : {}),
  };
  const targets = status !== 'completed' ? [] : upload.targets.map((t, k) => ({
    _id: `${account.id}:${requestId}:${t.platform}`, accountId: account.id, requestId, platform: t.platform,
    result: { platform: t.platform, success: true, warnings: [], post_id: `p-${requestId}-${k}`, url: `https://${t.platform}.example/p/${requestId}`, finished_at: upload.completedAt!.toISOString() },
    resultAt: upload.completedAt, th: targetKeys(account.id, upload), postId: `p-${requestId}-${k}`,
  }));
  return { upload, targets };
}

export const uploadsScale: ScaleList = {
  name: 'uploads',
  async seed(ctx) {
    let written = 0;
    for (const account of ctx.accounts) {
      const n = ctx.uploadsOf(account);
      const counts = new Map<string, CounterDelta>();
      // SEED_PARALLEL batches in flight (ctx.write: COPY into FerretDB's tables, or the driver's insertMany).
      let done = 0;
      const starts = Array.from({ length: Math.ceil(n / BATCH) }, (_, k) => k * BATCH);
      await Promise.all(Array.from({ length: SEED_PARALLEL }, async () => {
        for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
          const batch = Array.from({ length: Math.min(BATCH, n - start) }, (_, k) => makeUpload(ctx, account, start + k));
          for (const { upload } of batch) sumDeltas(counts, uploadCounterDeltas(upload));
          await ctx.write('uploads', batch.map(({ upload }) => toUploadDoc(upload)));
          const targets = batch.flatMap((b) => b.targets);
          await ctx.write('upload_targets', targets);
          written += batch.length;
          done += batch.length;
          if (Math.floor(done / 20_000) !== Math.floor((done - batch.length) / 20_000)) ctx.say(`uploads: ${account.role} ${account.id}: ${done}/${n}`);
        }
      }));
      await ctx.counters.replace([], [...counts.values()]);
    }
    return { written };
  },
  async requests(account, get) {
    const limit = 20;
    const first = await get(`${NS}/history?limit=${limit}`);
    const total = Number(first.total);
    const pages = Math.max(1, Math.ceil(total / limit));
    // The last page that is full on every account (a last page of 3 rows beside one of 20 would measure the answer's size).
    const lastFull = Math.max(1, Math.floor(total / limit));
    const profile = account.profiles[0]!;
    const platform = account.connections[profile]?.[0]?.platform ?? 'bluesky';
    const month = new Date(Date.now() - 30 * 24 * 3600_000).toISOString();
    const some = (first.history as Array<{ request_id: string }>)[0]?.request_id ?? 'none';
    const out: MeasuredRequest[] = [
      { name: 'history page 1', path: `${NS}/history?limit=${limit}` },
      { name: 'history middle page', path: `${NS}/history?limit=${limit}&page=${Math.ceil(pages / 2)}` },
      { name: 'history last full page', path: `${NS}/history?limit=${limit}&page=${lastFull}` },
      ...(first.next_cursor ? [{ name: 'history cursor page 2', path: `${NS}/history?limit=${limit}&cursor=${encodeURIComponent(String(first.next_cursor))}` }] : []),
      { name: 'history status=completed', path: `${NS}/history?limit=${limit}&status=completed` },
      { name: 'history status=pending', path: `${NS}/history?limit=${limit}&status=pending` },
      { name: 'history profile', path: `${NS}/history?limit=${limit}&profile_username=${profile}` },
      { name: 'history platform+status+profile', path: `${NS}/history?limit=${limit}&platform=${platform}&status=completed&profile_username=${profile}` },
      { name: 'history last 30 days', path: `${NS}/history?limit=${limit}&start=${encodeURIComponent(month)}` },
      { name: 'history external_id', path: `${NS}/history?limit=${limit}&external_id=ext-${account.role}-7` },
      { name: 'status by request_id', path: `${NS}/status?request_id=${encodeURIComponent(some)}` },
      { name: 'schedule (limit 50)', path: `${NS}/schedule?limit=50` },
    ];
    return out;
  },
};
