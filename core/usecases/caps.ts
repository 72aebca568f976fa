import { DAY_MS } from '../domain/caps';
import type { Platform } from '../domain/platforms';
import type { PlatformRegistry } from '../ports/platform';
import type { Storage } from '../ports/storage';
import type { Clock } from '../ports/system';

export interface CapViolation {
  platform: Platform;
  type: 'hard_cap' | 'rate_cap';
  cap: number;
  used_last_24h?: number;
  used_last_minute?: number;
  message: string;
}

/**
 * Whether one more post on a connected account at `when` would pass its rolling-24-hour cap (or
 * TikTok's per-minute burst). Posts count at their cap time (scheduled time, else creation);
 * `excludeRequestId` leaves the post being checked out of the count.
 */
export async function capExceeded(
  deps: { storage: Pick<Storage, 'uploads'>; platforms: PlatformRegistry }, platform: Platform, connectionId: string, when: Date, excludeRequestId?: string,
): Promise<CapViolation | null> {
  const now = when.getTime();
  const rules = deps.platforms.get(platform)?.descriptor.rules ?? {};
  const daily = rules.dailyCap;
  if (daily !== undefined) {
    const used = await deps.storage.uploads.countForConnection(connectionId, new Date(now - DAY_MS), when, excludeRequestId);
    if (used >= daily) return { platform, type: 'hard_cap', used_last_24h: used, cap: daily, message: `${platform}: ${used} posts in the last 24 hours; the cap is ${daily}.` };
  }
  const perMinute = rules.perMinuteCap;
  if (perMinute !== undefined) {
    const used = await deps.storage.uploads.countForConnection(connectionId, new Date(now - 60_000), when, excludeRequestId);
    if (used >= perMinute) return { platform, type: 'rate_cap', used_last_minute: used, cap: perMinute, message: `${platform}: ${used} posts in the last minute; at most ${perMinute}.` };
  }
  return null;
}

export interface PostponeDeps {
  storage: Pick<Storage, 'uploads' | 'queues'>;
  clock: Clock;
  platforms: PlatformRegistry;
}

/**
 * A scheduled or queued post is checked against the caps again when it is due. If one of its
 * accounts is at a daily cap, the whole post moves to the same time the next day (a per-minute
 * burst: one minute later), with a warning in its status; it is checked again then. Returns the
 * new time, or null when the post may run now (or is no longer scheduled).
 */
export async function postponeIfCapped(
  deps: PostponeDeps, input: { accountId: string; requestId: string },
): Promise<{ postponedTo: string } | null> {
  const upload = await deps.storage.uploads.find(input.accountId, input.requestId);
  if (!upload || upload.status !== 'scheduled') return null;
  const now = deps.clock.now();
  const due = upload.scheduledFor ?? now;
  for (const target of upload.targets) {
    const violation = await capExceeded(deps, target.platform, target.connectedAccountId, now, upload.requestId);
    if (!violation) continue;
    const step = violation.type === 'hard_cap' ? DAY_MS : 60_000;
    // The same time the next day; a post overdue by more than that (worker down) moves from now.
    const to = new Date(due.getTime() + step > now.getTime() ? due.getTime() + step : now.getTime() + step);
    const warning = violation.type === 'hard_cap'
      ? `Moved from ${due.toISOString()} to ${to.toISOString()}: the ${target.platform} account had ${violation.used_last_24h} posts in the last 24 hours when this post was due (daily cap ${violation.cap}).`
      : `Moved from ${due.toISOString()} to ${to.toISOString()}: the ${target.platform} account had ${violation.used_last_minute} posts in the last minute (at most ${violation.cap}).`;
    if (!(await deps.storage.uploads.postponeScheduled(upload.accountId, upload.requestId, to, warning, now))) return null;
    // The queue place it held is free for another post.
    if (upload.queueSlot) await deps.storage.queues.release(upload.accountId, upload.profileUsername, upload.queueSlot, upload.requestId);
    return { postponedTo: to.toISOString() };
  }
  return null;
}
