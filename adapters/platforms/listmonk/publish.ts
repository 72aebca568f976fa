/**
 * A listmonk campaign from a post (listmonk.app/docs/apis/campaigns): created as a draft with
 * POST /api/campaigns (subject = the text, body = description or the text), then started with
 * PUT /api/campaigns/:id/status {status: running}, or scheduled ({status: scheduled} with send_at).
 * The two are separate steps: a start that fails is retried on the campaign already created,
 * never by creating a second one.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type PublishContext, type PublishOutcome, type PublishPost, type Publisher } from '../../../core/ports/platform';
import { isObject, num, str } from '../kit/http';
import type { ListmonkAccount, ListmonkClient } from './client';
import { listmonkDescriptor } from './descriptor';

interface Created { campaignId: number; scheduled: boolean }

const invalid = (code: string, message: string) => new PlatformError('listmonk', { kind: 'invalid_content', code }, message);

function accountOf(credentials: Record<string, string>): ListmonkAccount {
  const { instance_url: instance, api_user: user, api_token: token } = credentials;
  if (!instance || !user || !token) throw new PlatformError('listmonk', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored listmonk connection is incomplete; reconnect the account.');
  return { instance, user, token };
}

function campaignIdOf(client: ListmonkClient, data: unknown, what: string): number {
  const id = isObject(data) ? num(data.id) : undefined;
  if (id === undefined) throw client.fail({ kind: 'malformed', status: 200, what });
  return id;
}

export function createListmonkPublisher(client: ListmonkClient, now: () => Date): Publisher {
  async function start(ctx: PublishContext, created: Created): Promise<PublishOutcome> {
    const account = accountOf(ctx.credentials);
    const status = created.scheduled ? 'scheduled' : 'running';
    // A start whose answer was lost took effect already: read the campaign before starting it again.
    const current = await client.call(account, 'GET', `/api/campaigns/${created.campaignId}`, 'the campaign', undefined, ctx.signal);
    const started = isObject(current) && ['running', 'scheduled', 'finished'].includes(str(current.status) ?? '');
    const data = started ? current
      : await client.call(account, 'PUT', `/api/campaigns/${created.campaignId}/status`, 'the campaign\'s status', { status }, ctx.signal);
    const now = isObject(data) ? str(data.status) : undefined;
    // Admin pages are the only link a campaign has; shown when the instance is served over https.
    const url = account.instance.startsWith('https://') ? `${account.instance}/admin/campaigns/${created.campaignId}` : undefined;
    return {
      postId: String(created.campaignId), ...(url ? { url } : {}), warnings: [],
      extra: { campaign_status: now ?? status, ...(isObject(data) && str(data.uuid) ? { campaign_uuid: str(data.uuid) } : {}) },
    };
  }

  return {
    async publish(ctx, post: PublishPost) {
      if (post.kind !== 'text' || post.media.length) throw new PlatformError('listmonk', { kind: 'unsupported' }, 'listmonk campaigns are sent from text posts.');
      const s = post.settings;
      const subject = post.title;
      if (!subject.trim()) throw invalid('text_empty', 'A listmonk campaign needs a subject: send title or listmonk_title.');
      const max = listmonkDescriptor.limits.textMaxChars!;
      const body = post.description?.trim() ? post.description : post.title;
      for (const [what, value] of [['subjects', subject], ['bodies', body]] as const) {
        const length = textLengthOf(listmonkDescriptor, value);
        if (length > max) throw invalid('text_too_long', `listmonk campaign ${what} are limited to ${max} characters here; this one has ${length}.`);
      }
      const listIds = ((s.listmonk_list_ids as string[] | undefined) ?? (ctx.credentials.list_ids ?? '').split(',').filter(Boolean)).map(Number);
      if (!listIds.length) throw invalid('lists_required', 'Name the lists to send to in listmonk_list_ids, or connect the instance with default list_ids.');
      const sendAt = typeof s.listmonk_send_at === 'string' ? new Date(s.listmonk_send_at) : undefined;
      if (sendAt && sendAt.getTime() <= now().getTime()) throw invalid('send_at_past', 'listmonk_send_at must be in the future.');
      const account = accountOf(ctx.credentials);
      const data = await client.call(account, 'POST', '/api/campaigns', 'the created campaign', {
        name: typeof s.listmonk_name === 'string' ? s.listmonk_name : subject.slice(0, 200),
        subject,
        lists: listIds,
        type: 'regular',
        messenger: 'email',
        content_type: s.listmonk_content_type ?? 'markdown',
        body,
        ...(typeof s.listmonk_template_id === 'number' ? { template_id: s.listmonk_template_id } : {}),
        ...(typeof s.listmonk_from_email === 'string' ? { from_email: s.listmonk_from_email } : {}),
        ...(Array.isArray(s.listmonk_tags) ? { tags: s.listmonk_tags } : {}),
        ...(sendAt ? { send_later: true, send_at: sendAt.toISOString() } : {}),
      }, ctx.signal);
      const created: Created = { campaignId: campaignIdOf(client, data, 'the created campaign'), scheduled: Boolean(sendAt) };
      // Starting is its own step: a failed start is retried on this campaign.
      return { kind: 'wait', afterMs: 0, state: created as unknown as Record<string, unknown> };
    },
    async resume(ctx, _post, state) {
      return { kind: 'done', outcome: await start(ctx, state as unknown as Created) };
    },
  };
}
