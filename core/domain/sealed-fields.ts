import type { SealedAt } from '../ports/system';
import type { Platform } from './platforms';

/**
 * Every field Herald stores sealed, and the place each value is bound to (docs/security/at-rest.md).
 * The key is the record's unique key as the core knows it before the record is stored: a
 * connection by (account, profile, platform), since reconnecting keeps the stored connection's id
 * whatever id the new record was given.
 */
export const SEALED_FIELDS = {
  connectionCredentials: (c: { accountId: string; profileUsername: string; platform: Platform }): SealedAt =>
    ({ record: 'connected_account', key: [c.accountId, c.profileUsername, c.platform], field: 'credentials' }),
  webhookSecret: (accountId: string): SealedAt => ({ record: 'notification_settings', key: [accountId], field: 'webhook_secret' }),
  slackWebhookUrl: (accountId: string): SealedAt => ({ record: 'notification_settings', key: [accountId], field: 'slack_webhook_url' }),
  agentClientSecret: (clientId: string): SealedAt => ({ record: 'agent_client', key: [clientId], field: 'client_secret' }),
} as const;
