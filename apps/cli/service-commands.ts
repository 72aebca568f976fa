import type { OperatorAccount } from '../../core/domain/operator';
import { mediaConsumption } from '../../core/usecases/media-jobs';
import { redeliver } from '../../core/usecases/notifications/delivery';
import { listDeliveries } from '../../core/usecases/notifications/delivery-log';
import type { NotificationDeps } from '../../core/usecases/notifications/deps';
import type { MediaUsageRepository } from '../../core/ports/storage/media-usage';
import type { Clock } from '../../core/ports/system';
import type { ResealReport } from '../../adapters/mongo/reseal';
import type { StepReport } from '../../adapters/mongo/migrate';
import type { Output } from './operator-commands';
import { sinceOf, table } from './table';

/** `media minutes`: the account's media-job minutes this month, as GET /ffmpeg/consumption answers (its first page of jobs). */
export async function mediaMinutes(deps: { mediaUsage: MediaUsageRepository; clock: Clock }, account: OperatorAccount): Promise<Output> {
  const record = await mediaConsumption(deps, account);
  const c = record.consumption;
  const head = `${account.email} (${c.plan}): ${c.used_minutes} of ${c.quota_minutes} minutes used in ${c.current_month} (${c.usage_percentage} %), `
    + `${c.remaining_minutes} left, ${c.total_requests} jobs; resets ${record.quota_info.next_reset}`;
  const more = record.has_more ? `\n(the newest ${record.history.length} of ${c.total_requests} jobs)` : '';
  return { data: record, text: record.history.length ? `${head}\n${table(record.history, ['timestamp', 'job_id', 'duration_minutes', 'type', 'settled'])}${more}` : head };
}

/** `webhooks failed`: failed delivery attempts of the account (newest first), optionally since a time. */
export async function failedDeliveries(deps: NotificationDeps, account: OperatorAccount, since: string | undefined, now: Date): Promise<Output> {
  const list = await listDeliveries(deps, account, { outcome: 'failed', limit: 100, ...(since ? { since: sinceOf(since, now).toISOString() } : {}) });
  const rows = list.deliveries.map((d) => ({ ...d }) as Record<string, unknown>);
  return { data: list, text: rows.length ? table(rows, ['created_at', 'delivery_id', 'event', 'channel', 'status_code', 'error']) : 'no failed deliveries' };
}

/** `webhooks redeliver`: sends one delivery again now (same delivery id, signed anew). */
export async function redeliverOne(deps: NotificationDeps, account: OperatorAccount, deliveryId: string): Promise<Output> {
  const attempt = await redeliver(deps, account, deliveryId);
  return { data: attempt, text: table([{ ...attempt } as Record<string, unknown>], ['delivery_id', 'outcome', 'status_code', 'latency_ms', 'error']) };
}

/** `migrate`: per step, what it did. */
export function migrateReport(reports: StepReport[]): Output {
  return { data: reports, text: table(reports.map((r) => ({ ...r })), ['id', 'status', 'accounts', 'changed', 'counted']) };
}

/** `secrets reseal`: per sealed field, how many values were sealed again bound to their record. */
export function resealReport(reports: ResealReport[], dryRun: boolean): Output {
  const rows = reports.map((r) => ({ ...r, unreadable: r.unreadable.length ? r.unreadable.join(' ') : '-' }) as Record<string, unknown>);
  return { data: reports, text: `${table(rows, ['collection', 'field', 'examined', 'resealed', 'changedMeanwhile', 'unreadable'])}${dryRun ? '\n(dry run: nothing written)' : ''}` };
}
