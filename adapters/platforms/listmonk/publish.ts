/**
 * A listmonk campaign from a post (listmonk.app/docs/apis/campaigns): created as a draft with
 * POST /api/campaigns (subject = the text, body = description or the text), then started with
 * PUT /api/campaigns/:id/status {status: running}, or scheduled ({status: scheduled} with send_at).
 * The two are separate steps: a start that fails is retried on the campaign already created,
 * never by creating a second one. A photo post first uploads each image to listmonk's media library
 * (POST /api/media) and embeds the returned URLs at the end of the body, written in the body's content type.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type PublishContext, type PublishOutcome, type PublishPost, type Publisher } from '../../../core/ports/platform';
import { collectBytes, isObject, num, str } from '../kit/http';
import type { ListmonkAccount, ListmonkClient } from './client';
import { LISTMONK_MAX_PHOTOS, LISTMONK_PHOTO_MAX_BYTES, listmonkDescriptor } from './descriptor';

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

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The images appended to the body in its own content type. */
export function embedImages(body: string, urls: string[], contentType: string, alt: string): string {
  if (!urls.length) return body;
  if (contentType === 'markdown') return `${body}\n\n${urls.map((u) => `![${alt.replace(/[[\]]/g, '')}](${u})`).join('\n\n')}`;
  if (contentType === 'plain') return `${body}\n\n${urls.join('\n')}`;
  return `${body}\n${urls.map((u) => `<p><img src="${escapeHtml(u)}" alt="${escapeHtml(alt)}" /></p>`).join('\n')}`;
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
      if (post.kind === 'video' || post.media.some((m) => m.kind === 'video')) {
        throw new PlatformError('listmonk', { kind: 'unsupported' }, 'listmonk sends e-mail campaigns and takes no video; post text or photos to it.');
      }
      if (post.kind !== 'text' && post.kind !== 'photo') throw new PlatformError('listmonk', { kind: 'unsupported' }, 'listmonk campaigns are sent from text or photo posts.');
      if (post.kind === 'text' && post.media.length) throw new PlatformError('listmonk', { kind: 'unsupported' }, 'A listmonk text post carries no media.');
      if (post.kind === 'photo' && (post.media.length === 0 || post.media.length > LISTMONK_MAX_PHOTOS)) {
        throw invalid(post.media.length ? 'too_many_photos' : 'media_required', `A listmonk photo campaign embeds 1 to ${LISTMONK_MAX_PHOTOS} images; ${post.media.length} sent.`);
      }
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
      const contentType = typeof s.listmonk_content_type === 'string' ? s.listmonk_content_type : 'markdown';
      const urls: string[] = [];
      for (const [index, media] of post.media.entries()) {
        const bytes = await collectBytes(ctx.media.read(media.id), LISTMONK_PHOTO_MAX_BYTES);
        if (!bytes) throw invalid('payload_too_large', `Image ${index + 1} is over ${LISTMONK_PHOTO_MAX_BYTES / 1024 / 1024} MiB.`);
        const ext = media.contentType.split('/')[1]?.replace('jpeg', 'jpg') ?? 'jpg';
        const name = media.filename || `photo_${index + 1}.${ext}`;
        const uploaded = await client.uploadMedia(account, { name, contentType: media.contentType, bytes }, ctx.signal);
        const url = isObject(uploaded) ? str(uploaded.url) : undefined;
        if (!url) throw client.fail({ kind: 'malformed', status: 200, what: 'the uploaded media\'s url' });
        urls.push(url);
      }
      const data = await client.call(account, 'POST', '/api/campaigns', 'the created campaign', {
        name: typeof s.listmonk_name === 'string' ? s.listmonk_name : subject.slice(0, 200),
        subject,
        lists: listIds,
        type: 'regular',
        messenger: 'email',
        content_type: contentType,
        body: embedImages(body, urls, contentType, subject),
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
