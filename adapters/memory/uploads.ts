import type { PagePosition } from '../../core/domain/page-cursor';
import type { TargetResult, UploadRequest } from '../../core/domain/upload';
import { DuplicateKeyError, type ListPage, type UploadHistoryQuery, type UploadRepository } from '../../core/ports/storage';
import { compare, copy, key } from './values';

function matchesHistory(u: UploadRequest, q: UploadHistoryQuery): boolean {
  if (u.accountId !== q.accountId) return false;
  if (q.platform !== undefined && !u.targets.some((t) => t.platform === q.platform)) return false;
  if (q.status !== undefined && u.status !== q.status) return false;
  if (q.profileUsername !== undefined && u.profileUsername !== q.profileUsername) return false;
  if (q.start !== undefined && u.createdAt.getTime() < q.start.getTime()) return false;
  if (q.end !== undefined && u.createdAt.getTime() > q.end.getTime()) return false;
  if (q.requestId !== undefined && u.requestId !== q.requestId) return false;
  if (q.jobId !== undefined && u.jobId !== q.jobId) return false;
  if (q.externalId !== undefined && u.externalId !== q.externalId) return false;
  return true;
}

/** A page of `sorted` (in the list's order) by offset or after a position, as the Mongo adapter's bucket lists page. */
function pageOf(sorted: UploadRequest[], time: (u: UploadRequest) => Date, page: { limit: number; offset: number; after?: PagePosition }, asc = false): ListPage<UploadRequest> {
  const limit = Math.max(0, Math.floor(page.limit));
  let from = Math.max(0, Math.floor(page.offset));
  if (page.after) {
    const { t, id } = page.after;
    const afterIt = (u: UploadRequest) => {
      const ut = time(u).getTime();
      return asc ? ut > t || (ut === t && u.requestId > id) : ut < t || (ut === t && u.requestId < id);
    };
    from = sorted.findIndex(afterIt);
    if (from < 0) from = sorted.length;
  }
  const items = sorted.slice(from, from + limit);
  const last = items[items.length - 1];
  const next = from + limit < sorted.length && last
    ? { hour: time(last).toISOString().slice(0, 13), t: time(last).getTime(), id: last.requestId }
    : undefined;
  return { items: items.map((u) => copy(u)), total: sorted.length, ...(next ? { next } : {}) };
}

/** Uploads, unique per (account, request id), their targets' results and dispatches inside. */
export function createMemoryUploads(): UploadRepository {
  const byKey = new Map<string, UploadRequest>();
  const get = (accountId: string, requestId: string) => byKey.get(key(accountId, requestId));
  /** When a retried upload became pending again (the reconciler's clock for it). */
  const pendingSince = new Map<string, Date>();
  const begin: UploadRepository['begin'] = async (accountId, requestId, at) => {
    const found = get(accountId, requestId);
    if (!found) return null;
    if (found.status !== 'pending' && found.status !== 'scheduled') return { status: found.status };
    found.status = 'in_progress';
    found.startedAt = new Date(at.getTime());
    found.updatedAt = new Date(at.getTime());
    return { status: found.status, upload: copy(found) };
  };
  return {
    async insert(upload) {
      const k = key(upload.accountId, upload.requestId);
      if (byKey.has(k)) throw new DuplicateKeyError(`upload ${upload.requestId}`);
      byKey.set(k, copy(upload));
    },
    async find(accountId, requestId) {
      const found = get(accountId, requestId);
      return found ? copy(found) : null;
    },
    async findByJobId(accountId, jobId) {
      for (const u of byKey.values()) {
        if (u.accountId === accountId && u.jobId === jobId) return copy(u);
      }
      return null;
    },
    async findRequestIdByPostId(accountId, platform, postId) {
      for (const u of byKey.values()) {
        if (u.accountId === accountId && u.results[platform]?.success && u.results[platform]?.post_id === postId) return u.requestId;
      }
      return null;
    },
    async markInProgress(accountId, requestId, at) {
      return (await begin(accountId, requestId, at))?.status ?? null;
    },
    begin,
    async cancelScheduled(accountId, requestId, at) {
      const found = get(accountId, requestId);
      if (!found || found.status !== 'scheduled') return false;
      found.status = 'cancelled';
      found.completedAt = new Date(at.getTime());
      found.updatedAt = new Date(at.getTime());
      return true;
    },
    async updateScheduled(accountId, requestId, patch, at) {
      const found = get(accountId, requestId);
      if (!found || found.status !== 'scheduled') return false;
      Object.assign(found, copy(patch), { updatedAt: new Date(at.getTime()) });
      return true;
    },
    async setMedia(accountId, requestId, media, at) {
      const found = get(accountId, requestId);
      if (!found) return false;
      found.content = { ...found.content, media: copy(media) };
      found.updatedAt = new Date(at.getTime());
      return true;
    },
    // Per-target writes leave the upload's updatedAt alone, as the Mongo adapter does (they live in their own documents there).
    async recordDispatch(accountId, requestId, platform, attempt, at) {
      const found = get(accountId, requestId);
      if (found) found.dispatches[platform] = { attempt, at: new Date(at.getTime()) };
    },
    async recordResult(accountId, requestId, result: TargetResult) {
      const found = get(accountId, requestId);
      if (found && found.results[result.platform] === undefined) found.results[result.platform] = copy(result);
      return copy(found?.results[result.platform] ?? result);
    },
    async resetForRetry(accountId, requestId, platforms, at) {
      const found = get(accountId, requestId);
      if (!found || found.status !== 'completed') return null;
      found.status = 'pending';
      delete found.completedAt;
      found.updatedAt = new Date(at.getTime());
      found.retryCount = (found.retryCount ?? 0) + 1;
      pendingSince.set(key(accountId, requestId), new Date(at.getTime()));
      for (const platform of platforms) delete found.results[platform];
      return found.retryCount;
    },
    async markCompleted(accountId, requestId, at) {
      const found = get(accountId, requestId);
      if (found && found.status !== 'completed') {
        found.status = 'completed';
        found.completedAt = new Date(at.getTime());
        found.updatedAt = new Date(at.getTime());
      }
    },
    async findByPostId(accountId, platform, postId) {
      for (const u of byKey.values()) {
        if (u.accountId !== accountId) continue;
        if (u.results[platform]?.post_id === postId || u.operations?.some((op) => op.platform === platform && op.resultPostId === postId)) return copy(u);
      }
      return null;
    },
    async recordPostOperation(operation) {
      const found = get(operation.accountId, operation.requestId);
      if (found) found.operations = [...(found.operations ?? []), copy(operation)];
    },
    async history(query) {
      const matching = [...byKey.values()]
        .filter((u) => matchesHistory(u, query))
        .sort((a, b) => compare(b.createdAt.getTime(), a.createdAt.getTime()) || compare(b.requestId, a.requestId));
      return pageOf(matching, (u) => u.createdAt, { limit: query.limit, offset: (Math.max(1, Math.floor(query.page)) - 1) * Math.max(0, Math.floor(query.limit)), ...(query.after ? { after: query.after } : {}) });
    },
    async listScheduled(accountId, page) {
      const scheduled = [...byKey.values()]
        .filter((u) => u.accountId === accountId && u.status === 'scheduled' && u.scheduledFor)
        .sort((a, b) => compare(a.scheduledFor!.getTime(), b.scheduledFor!.getTime()) || compare(a.requestId, b.requestId));
      return pageOf(scheduled, (u) => u.scheduledFor!, { limit: page.limit, offset: page.offset ?? 0, ...(page.after ? { after: page.after } : {}) }, true);
    },
    async countSince(accountId, since) {
      return [...byKey.values()].filter((u) => u.accountId === accountId && u.createdAt >= since && u.status !== 'cancelled').length;
    },
    async countForConnection(connectionId, from, to, excludeRequestId) {
      return [...byKey.values()].filter((u) => {
        const capAt = (u.scheduledFor ?? u.createdAt).getTime();
        return u.targets.some((t) => t.connectedAccountId === connectionId) && capAt >= from.getTime() && capAt <= to.getTime()
          && u.status !== 'cancelled' && u.requestId !== excludeRequestId;
      }).length;
    },
    async postponeScheduled(accountId, requestId, to, warning, at) {
      const found = get(accountId, requestId);
      if (!found || found.status !== 'scheduled') return false;
      found.scheduledFor = new Date(to.getTime());
      found.warnings = [...found.warnings, warning];
      delete found.queueSlot;
      found.updatedAt = new Date(at.getTime());
      return true;
    },
    async listStalePending(olderThan, limit) {
      return [...byKey.values()]
        .filter((u) => u.status === 'pending' && (pendingSince.get(key(u.accountId, u.requestId)) ?? u.createdAt).getTime() < olderThan.getTime())
        .sort(
          (a, b) =>
            compare(a.createdAt.getTime(), b.createdAt.getTime()) ||
            compare(a.accountId, b.accountId) ||
            compare(a.requestId, b.requestId),
        )
        .slice(0, Math.max(0, Math.floor(limit)))
        .map((u) => copy(u));
    },
  };
}
