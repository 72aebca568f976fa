import type { ApiKey, OperatorAccount } from '../../core/domain/operator';
import type { Profile } from '../../core/domain/profile';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { TargetResult, UploadRequest } from '../../core/domain/upload';
import type { UploadCompletedEvent } from '../../core/ports/notifications';
import type { PlatformCredentials } from '../../core/ports/platform';
import type { SecretBox } from '../../core/ports/system';
import { SEALED_FIELDS } from '../../core/domain/sealed-fields';

/**
 * Object mothers: valid domain objects with unique ids, any field overridable.
 * Dates are whole milliseconds so they survive a BSON round trip unchanged.
 */
let sequence = 0;
const runTag = Math.random().toString(36).slice(2, 8);

/** A unique string for this test run: `prefix-<run>-<n>`. */
export function uniqueId(prefix: string): string {
  sequence += 1;
  return `${prefix}-${runTag}-${sequence}`;
}

export const T0 = new Date('2025-01-01T00:00:00.000Z');

/** T0 plus `minutes`. */
export function at(minutes: number): Date {
  return new Date(T0.getTime() + minutes * 60_000);
}

export function anOperator(overrides: Partial<OperatorAccount> = {}): OperatorAccount {
  const id = overrides.id ?? uniqueId('acct');
  return { id, email: `${id}@example.test`, plan: 'free', createdAt: T0, ...overrides };
}

export function anApiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  const id = overrides.id ?? uniqueId('key');
  return {
    id,
    accountId: 'acct-default',
    name: 'default key',
    prefix: id.slice(-8),
    hash: `sha256:${id}`,
    createdAt: T0,
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}

export function aProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    accountId: 'acct-default',
    username: uniqueId('user'),
    createdAt: T0,
    uiLabels: {},
    ...overrides,
  };
}

export function aConnectedAccount(overrides: Partial<ConnectedAccount> = {}): ConnectedAccount {
  const id = overrides.id ?? uniqueId('conn');
  return {
    id,
    accountId: 'acct-default',
    profileUsername: 'user-default',
    platform: 'x',
    platformUserId: `puid-${id}`,
    handle: `@${id}`,
    displayName: `Display ${id}`,
    avatarUrl: `https://img.example.test/${id}.png`,
    status: 'connected',
    sealedCredentials: `sealed:${id}`,
    connectedAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function anUpload(overrides: Partial<UploadRequest> = {}): UploadRequest {
  return {
    accountId: 'acct-default',
    requestId: uniqueId('req'),
    profileUsername: 'user-default',
    mediaType: 'text',
    content: { title: 'Hello world' },
    targets: [{ platform: 'x', connectedAccountId: 'conn-x', title: 'Hello world', settings: {} }],
    status: 'pending',
    async: true,
    results: {},
    dispatches: {},
    warnings: [],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function aTargetResult(overrides: Partial<TargetResult> = {}): TargetResult {
  return {
    platform: 'x',
    success: true,
    post_id: 'post-1',
    url: 'https://x.example.test/post-1',
    warnings: [],
    finished_at: T0.toISOString(),
    ...overrides,
  };
}

export function anUploadCompletedEvent(overrides: Partial<UploadCompletedEvent> = {}): UploadCompletedEvent {
  return {
    event: 'upload_completed',
    account_id: 'acct-default',
    request_id: uniqueId('req'),
    user_email: 'op@example.test',
    profile_username: 'user-default',
    platform: 'x',
    media_type: 'text',
    title: 'Hello world',
    caption: 'Hello world',
    result: { success: true, url: 'https://x.example.test/post-1', publish_id: null, post_id: 'post-1', error: null },
    created_at: T0.toISOString(),
    ...overrides,
  };
}

/** Credentials sealed as a connection of `owner` stores them (bound to its account, profile and platform). */
export function sealedCredentialsOf(secrets: SecretBox, owner: Pick<ConnectedAccount, 'accountId' | 'profileUsername' | 'platform'>, credentials: PlatformCredentials): string {
  return secrets.seal(JSON.stringify(credentials), SEALED_FIELDS.connectionCredentials(owner));
}
