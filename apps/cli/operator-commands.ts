import type { Storage } from '../../core/ports/storage';
import type { OperatorAccount } from '../../core/domain/operator';
import type { UploadRequest } from '../../core/domain/upload';
import { HeraldError } from '../../core/domain/errors';
import { workflowIds } from '../../core/ports/workflow-names';
import type { OperatorReads } from '../../adapters/mongo/operator-reads';
import { sinceOf, table } from './table';

/** What a command prints: the rows as a table for people, the data as JSON for scripts. */
export interface Output { data: unknown; text: string }

export interface OperatorDeps {
  storage: Storage;
  reads: OperatorReads;
  now: () => Date;
  temporal: { namespace: string; uiUrl: string };
}

async function operatorByEmail(deps: OperatorDeps, email: string): Promise<OperatorAccount> {
  const account = await deps.storage.operators.findByEmail(email.trim().toLowerCase());
  if (!account) throw new HeraldError('not_found', `No operator account with email ${email}.`);
  return account;
}

const connectionState = (c: { status: string; restriction?: { reason: string; until: Date }; checkpointRequired?: boolean }, now: Date): string => {
  if (c.status !== 'connected') return c.status;
  if (c.checkpointRequired) return 'checkpoint_required';
  if (c.restriction && new Date(c.restriction.until) > now) return `paused (${c.restriction.reason})`;
  return 'connected';
};

export async function accountsList(deps: OperatorDeps): Promise<Output> {
  const accounts = await deps.reads.listOperators();
  return { data: accounts, text: table(accounts.map((a) => ({ ...a })), ['email', 'id', 'plan', 'createdAt']) };
}

export async function connectionsNeeding(deps: OperatorDeps, what: 'paused' | 'reauth'): Promise<Output> {
  const now = deps.now();
  const list = what === 'paused' ? await deps.reads.paused(now) : await deps.reads.needingReauth();
  const emails = new Map((await deps.reads.listOperators()).map((a) => [a.id, a.email]));
  const rows = list.map((c) => ({
    operator: emails.get(c.accountId) ?? c.accountId, profile: c.profileUsername, platform: c.platform, handle: c.handle, connection: c.id,
    state: connectionState(c, now), reason: c.restriction?.reason ?? (c.checkpointRequired ? 'checkpoint' : undefined),
    until: c.restriction?.until, updatedAt: c.updatedAt,
  }));
  return { data: rows, text: rows.length ? table(rows, ['operator', 'profile', 'platform', 'handle', 'state', 'until', 'connection']) : `no connections ${what === 'paused' ? 'paused' : 'needing reauth'}` };
}

export async function profilesList(deps: OperatorDeps, email: string): Promise<Output> {
  const account = await operatorByEmail(deps, email);
  const now = deps.now();
  const profiles = await deps.storage.profiles.list(account.id);
  const rows = await Promise.all(profiles.map(async (p) => {
    const connections = await deps.storage.connectedAccounts.listByProfile(account.id, p.username);
    return {
      username: p.username, createdAt: p.createdAt,
      connections: connections.map((c) => `${c.platform}:${connectionState(c, now)}`).join(' ') || '-',
    };
  }));
  return { data: rows, text: rows.length ? table(rows, ['username', 'createdAt', 'connections']) : 'no profiles' };
}

export async function profileShow(deps: OperatorDeps, email: string, username: string): Promise<Output> {
  const account = await operatorByEmail(deps, email);
  const profile = await deps.storage.profiles.find(account.id, username);
  if (!profile) throw new HeraldError('not_found', `No profile "${username}" for ${account.email}.`);
  const now = deps.now();
  const connections = (await deps.storage.connectedAccounts.listByProfile(account.id, username)).map((c) => ({
    platform: c.platform, handle: c.handle, displayName: c.displayName, state: connectionState(c, now), status: c.status,
    restriction: c.restriction ?? null, checkpointRequired: c.checkpointRequired ?? false, connection: c.id, connectedAt: c.connectedAt, updatedAt: c.updatedAt,
  }));
  const data = { username: profile.username, operator: account.email, createdAt: profile.createdAt, pins: profile.pins ?? {}, connections };
  const text = [
    `profile ${profile.username} (operator ${account.email}, created ${profile.createdAt.toISOString()})`,
    connections.length ? table(connections, ['platform', 'handle', 'state', 'updatedAt', 'connection']) : 'no connected accounts',
  ].join('\n');
  return { data, text };
}

function workflowLink(deps: OperatorDeps, upload: UploadRequest): { workflowId: string; temporalUi: string } {
  const workflowId = workflowIds.upload(upload.accountId, upload.requestId, upload.retryCount ?? 0);
  return { workflowId, temporalUi: `${deps.temporal.uiUrl}/namespaces/${encodeURIComponent(deps.temporal.namespace)}/workflows/${encodeURIComponent(workflowId)}` };
}

export async function uploadShow(deps: OperatorDeps, email: string, requestId: string): Promise<Output> {
  const account = await operatorByEmail(deps, email);
  const upload = await deps.storage.uploads.find(account.id, requestId) ?? await deps.storage.uploads.findByJobId(account.id, requestId);
  if (!upload) throw new HeraldError('not_found', `No upload "${requestId}" (request id or job id) for ${account.email}.`);
  const link = workflowLink(deps, upload);
  const results = upload.targets.map((t) => {
    const r = upload.results[t.platform];
    return {
      platform: t.platform, result: r ? (r.success ? 'published' : 'failed') : 'pending', post_id: r?.post_id, url: r?.url,
      error_code: r?.error_code, error: r?.error, finished_at: r?.finished_at,
    };
  });
  const data = {
    request_id: upload.requestId, job_id: upload.jobId ?? null, status: upload.status, profile: upload.profileUsername, media_type: upload.mediaType,
    created_at: upload.createdAt, scheduled_for: upload.scheduledFor ?? null, retry_count: upload.retryCount ?? 0, workflow_id: link.workflowId,
    temporal_ui: link.temporalUi, results,
  };
  const text = [
    `upload ${upload.requestId}${upload.jobId ? ` (job ${upload.jobId})` : ''}: ${upload.status}, profile ${upload.profileUsername}, ${upload.mediaType}, created ${upload.createdAt.toISOString()}`
      + (upload.scheduledFor ? `, scheduled for ${upload.scheduledFor.toISOString()}` : ''),
    `workflow ${link.workflowId}`,
    `temporal ${link.temporalUi}`,
    table(results, ['platform', 'result', 'post_id', 'error_code', 'error', 'url']),
  ].join('\n');
  return { data, text };
}

/** Failed targets of uploads created since `since`, of one operator or of all. */
export async function uploadFailures(deps: OperatorDeps, since: string, email?: string): Promise<Output> {
  const from = sinceOf(since, deps.now());
  const accounts = email ? [await operatorByEmail(deps, email)] : await deps.reads.listOperators();
  const rows: Array<Record<string, unknown>> = [];
  for (const account of accounts) {
    for (let page = 1; ; page += 1) {
      const { items, total } = await deps.storage.uploads.history({ accountId: account.id, start: from, page, limit: 100 });
      for (const upload of items) {
        for (const [platform, r] of Object.entries(upload.results)) {
          if (!r || r.success) continue;
          rows.push({
            finished_at: r.finished_at, operator: account.email, request_id: upload.requestId, profile: upload.profileUsername, platform,
            error_code: r.error_code, error: r.error, workflow_id: workflowLink(deps, upload).workflowId,
          });
        }
      }
      if (page * 100 >= total || !items.length) break;
    }
  }
  rows.sort((a, b) => String(b.finished_at).localeCompare(String(a.finished_at)));
  return { data: rows, text: rows.length ? table(rows, ['finished_at', 'operator', 'request_id', 'platform', 'error_code', 'error']) : `no failures since ${from.toISOString()}` };
}
