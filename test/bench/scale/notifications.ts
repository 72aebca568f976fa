import { createHash } from 'node:crypto';
import { deliveryAttemptCounterDeltas, deliveryLists, toDeliveryAttemptDoc } from '../../../adapters/mongo/notifications/delivery-log';
import { sumDeltas, type CounterDelta } from '../../../adapters/mongo/list-counters';
import { COLLECTIONS } from '../../../adapters/mongo/collections';
import type { ChannelKind } from '../../../core/domain/notifications';
import type { DeliveryAttemptRecord, DeliveryOutcome, DeliveryTrigger } from '../../../core/ports/storage/notification-delivery-log';
import type { MeasuredRequest, ScaleList, SeedContext, SeededAccount } from './plugin';

/**
 * The delivery log in the scale bench: one attempt per upload of each account (1,000,000 in all,
 * 300,000 on the large account), spread over the bench's months, written with the repository's
 * own document builder (`toDeliveryAttemptDoc`) and counted with its counter deltas, summed per
 * list and hour and written per account with `counters.replace`.
 *
 * The attempts expire `months` + 30 days after they were made (as if the retention covered the
 * bench's history): none goes while the bench runs.
 */
const DAY = 86_400_000;
const CHUNK = 5_000;
const SEED_PARALLEL = Number(process.env.SCALE_SEED_PARALLEL ?? '6');
const LIMIT = 50;
const DELIVERIES = '/api/herald/users/notifications/deliveries';

/** Picks by weight: [value, weight][] with weights summing to 1. */
function weighted<T>(random: () => number, table: Array<[T, number]>): T {
  let r = random();
  for (const [value, w] of table) {
    if (r < w) return value;
    r -= w;
  }
  return table[table.length - 1]![0];
}

const EVENTS: Array<[string, number]> = [['upload_completed', 0.8], ['social_account_connected', 0.08], ['social_account_disconnected', 0.04], ['social_account_reauth_required', 0.03], ['test', 0.05]];
const CHANNELS: Array<[ChannelKind, number]> = [['webhook', 0.6], ['profile_webhook', 0.2], ['telegram', 0.1], ['slack', 0.1]];
const OUTCOMES: Array<[DeliveryOutcome, number]> = [['delivered', 0.9], ['failed', 0.08], ['skipped', 0.02]];

const hex = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

function attemptOf(ctx: SeedContext, account: SeededAccount, n: number, deliveryOf: string[]): DeliveryAttemptRecord {
  const r = ctx.random;
  const createdAt = new Date(Math.floor(ctx.now.getTime() - r() * ctx.months * 30.44 * DAY));
  const event = weighted(r, EVENTS);
  const channel = event === 'test' ? weighted(r, CHANNELS.filter(([c]) => c !== 'profile_webhook').map(([c, w]) => [c, w / 0.8] as [ChannelKind, number])) : weighted(r, CHANNELS);
  const outcome = weighted(r, OUTCOMES);
  // One in twenty attempts redelivers an earlier delivery (same delivery id): a few deliveries have several attempts.
  const redelivery = event !== 'test' && deliveryOf.length > 0 && r() < 0.05;
  const deliveryId = redelivery ? deliveryOf[Math.floor(r() * deliveryOf.length)]! : `dlv_${hex(`${account.id}|${n}`)}`;
  if (!redelivery && deliveryOf.length < 1000) deliveryOf.push(deliveryId);
  const trigger: DeliveryTrigger = event === 'test' ? 'test' : redelivery ? 'redelivery' : 'event';
  const profile = account.profiles.length ? account.profiles[Math.floor(r() * account.profiles.length)] : undefined;
  const failed = outcome === 'failed';
  return {
    id: `att_${hex(`att|${account.id}|${n}`).slice(0, 24)}`,
    accountId: account.id,
    deliveryId,
    eventKey: `${event}:${account.id}:${n}`,
    event,
    channel,
    ...(channel === 'profile_webhook' && profile ? { profileUsername: profile } : {}),
    url: outcome === 'skipped' ? null : channel === 'telegram' ? 'telegram:-100123' : 'https://receiver.example.test/hook',
    statusCode: outcome === 'delivered' ? 200 : failed ? 500 : null,
    latencyMs: outcome === 'skipped' ? null : 20 + Math.floor(r() * 400),
    error: failed ? 'HTTP 500' : outcome === 'skipped' ? 'skipped: the webhook channel is turned off' : null,
    response: failed ? 'internal error' : null,
    outcome,
    trigger,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + (ctx.months * 31 + 30) * DAY),
  };
}

export const notificationsScale: ScaleList = {
  name: 'notifications',
  async seed(ctx) {
    const col = ctx.db.collection(COLLECTIONS.deliveryAttempts);
    let written = 0;
    for (const account of ctx.accounts) {
      const total = ctx.uploadsOf(account);
      // Counts per list, lane and hour, summed here: one delta per (list, hour) instead of 8 per attempt.
      const counts = new Map<string, CounterDelta>();
      const lists = new Set<string>();
      const deliveryOf: string[] = [];
      // Up to SEED_PARALLEL batches written at once while the next ones are made.
      const writing: Array<Promise<void>> = [];
      for (let start = 0; start < total; start += CHUNK) {
        const batch: DeliveryAttemptRecord[] = [];
        for (let n = start; n < Math.min(total, start + CHUNK); n += 1) batch.push(attemptOf(ctx, account, n, deliveryOf));
        for (const r of batch) {
          sumDeltas(counts, deliveryAttemptCounterDeltas(r));
          for (const list of deliveryLists(r)) lists.add(list);
        }
        if (writing.length >= SEED_PARALLEL) await writing.shift();
        writing.push(ctx.write(col.collectionName, batch.map(toDeliveryAttemptDoc)));
        written += batch.length;
      }
      await Promise.all(writing);
      await ctx.counters.replace([...lists], [...counts.values()]);
      ctx.say(`notifications: ${account.id} (${account.role}): ${total} delivery attempts, ${lists.size} lists`);
    }
    return { written };
  },
  async requests(_account, get) {
    const out: MeasuredRequest[] = [];
    const page = (q: string, n: number) => `${DELIVERIES}?limit=${LIMIT}&page=${n}${q}`;
    const first = await get(page('', 1));
    const total = Number(first.total ?? 0);
    const pages = Math.max(1, Math.ceil(total / LIMIT));
    // The last page that is full on every account: a last page of 11 rows beside one of 32 measured the answer's size.
    const lastFull = (n: number) => Math.max(1, Math.floor(n / LIMIT));
    out.push(
      { name: 'deliveries: page 1', path: page('', 1) },
      { name: 'deliveries: middle page', path: page('', Math.max(1, Math.ceil(pages / 2))) },
      { name: 'deliveries: last full page', path: page('', lastFull(total)) },
    );
    if (typeof first.next_cursor === 'string') {
      out.push({ name: 'deliveries: cursor, page 2', path: `${DELIVERIES}?limit=${LIMIT}&cursor=${encodeURIComponent(first.next_cursor)}` });
    }
    // Filtered: the failed ones (the CLI's `webhooks failed`), one event to one channel, a date range.
    const failed = await get(page('&outcome=failed', 1));
    out.push(
      { name: 'deliveries: outcome=failed, page 1', path: page('&outcome=failed', 1) },
      { name: 'deliveries: outcome=failed, last full page', path: page('&outcome=failed', lastFull(Number(failed.total ?? 0))) },
      { name: 'deliveries: event+channel+outcome, page 1', path: page('&event=upload_completed&channel=webhook&outcome=delivered', 1) },
    );
    const newest = (first.deliveries as Array<{ created_at: string; delivery_id: string }> | undefined)?.[0];
    if (newest) {
      const end = new Date(newest.created_at);
      // 30 days: long enough that the small account's second page is full too (its attempts are spread over 13 months).
      const start = new Date(end.getTime() - 30 * DAY);
      out.push(
        { name: 'deliveries: 30-day range, page 2', path: page(`&start=${encodeURIComponent(start.toISOString())}&end=${encodeURIComponent(end.toISOString())}`, 2) },
        { name: 'deliveries: delivery_id', path: page(`&delivery_id=${newest.delivery_id}`, 1) },
      );
    }
    return out;
  },
};

export default notificationsScale;
