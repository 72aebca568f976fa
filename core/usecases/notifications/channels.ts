import { chatText, type ChannelKind, type ChannelRef, type NotificationSettings, type PublicPayload } from '../../domain/notifications';
import type { SendOutcome } from '../../ports/notification-channels';
import type { NotificationDeps } from './deps';
import { slackUrlOf, webhookSecretOf } from './secrets';

/** Where one channel's deliveries go now, or why nothing goes. */
export interface Target {
  kind: ChannelKind;
  address: string;
  secret: string | null;
}

export async function targetOf(deps: NotificationDeps, ref: ChannelRef, settings: NotificationSettings): Promise<Target | string> {
  const secret = webhookSecretOf(deps, settings);
  switch (ref.kind) {
    case 'webhook':
      return settings.channels.webhook && settings.webhookUrl ? { kind: 'webhook', address: settings.webhookUrl, secret } : 'the webhook channel is turned off';
    case 'telegram':
      return settings.channels.telegram && settings.telegramChatId ? { kind: 'telegram', address: settings.telegramChatId, secret: null } : 'the telegram channel is turned off';
    case 'slack': {
      const url = settings.channels.slack ? slackUrlOf(deps, settings) : null;
      return url ? { kind: 'slack', address: url, secret: null } : 'the slack channel is turned off';
    }
    case 'profile_webhook': {
      const hook = await deps.notifications.profileWebhooks.get(ref.accountId, ref.profileUsername!);
      return hook ? { kind: 'profile_webhook', address: hook.webhookUrl, secret } : `profile ${ref.profileUsername} has no webhook any more`;
    }
  }
}

/** One send of a notification to a channel's target: the signed webhook POST or the chat message. */
export async function send(deps: NotificationDeps, target: Target, event: string, deliveryId: string, payload: PublicPayload): Promise<SendOutcome> {
  switch (target.kind) {
    case 'webhook':
    case 'profile_webhook':
      return deps.senders.webhook({ url: target.address, secret: target.secret, event, deliveryId, payload });
    case 'telegram':
      return deps.senders.telegram(target.address, chatText(payload));
    case 'slack':
      return deps.senders.slack(target.address, chatText(payload));
  }
}
