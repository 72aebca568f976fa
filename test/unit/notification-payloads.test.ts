import { chatText, publicPayload } from '../../core/domain/notifications';
import type { SocialAccountConnectedEvent, SocialAccountDisconnectedEvent, SocialAccountReauthRequiredEvent } from '../../core/ports/notifications';
import { anUploadCompletedEvent } from '../support/mothers';

const base = { account_id: 'acct-secret-internal', user_email: 'op@example.test', platform: 'youtube' as const, account_name: 'My Channel', created_at: '2026-01-01T00:00:00.000Z' };

describe('notification payloads: exactly the spec fields, nothing internal', () => {
  it('upload_completed (success, with job id): the spec fields in order, no account_id or request_id', () => {
    const payload = publicPayload(anUploadCompletedEvent({
      account_id: 'acct-secret-internal', request_id: 'req-internal', job_id: 'job-1', profile_username: 'alice', platform: 'x', media_type: 'video',
      title: 'T', caption: 'C', created_at: '2026-01-01T00:00:00.000Z',
      result: { success: true, url: 'https://x.test/1', publish_id: null, post_id: 'p1', error: null },
    }));
    expect(Object.keys(payload)).toEqual(['event', 'job_id', 'user_email', 'profile_username', 'platform', 'media_type', 'title', 'caption', 'result', 'created_at']);
    expect(payload).toEqual({
      event: 'upload_completed', job_id: 'job-1', user_email: 'op@example.test', profile_username: 'alice', platform: 'x', media_type: 'video',
      title: 'T', caption: 'C', result: { success: true, url: 'https://x.test/1', publish_id: null, post_id: 'p1', error: null }, created_at: '2026-01-01T00:00:00.000Z',
    });
    expect(JSON.stringify(payload)).not.toMatch(/acct-secret-internal|req-internal/);
  });

  it('upload_completed (failure, no job id): job_id absent, error carried', () => {
    const payload = publicPayload(anUploadCompletedEvent({ result: { success: false, url: null, publish_id: null, post_id: null, error: 'rejected by x' } }));
    expect(payload).not.toHaveProperty('job_id');
    expect(payload.result).toEqual({ success: false, url: null, publish_id: null, post_id: null, error: 'rejected by x' });
  });

  it('social_account_connected: no reason', () => {
    const event: SocialAccountConnectedEvent = { ...base, event: 'social_account_connected', status: 'connected', profile_username: 'alice' };
    expect(publicPayload(event)).toEqual({
      event: 'social_account_connected', user_email: 'op@example.test', platform: 'youtube', account_name: 'My Channel', status: 'connected', profile_username: 'alice', created_at: base.created_at,
    });
  });

  it('social_account_disconnected: with reason, profile_username only when applicable', () => {
    const event: SocialAccountDisconnectedEvent = { ...base, event: 'social_account_disconnected', status: 'disconnected', reason: 'manual_disconnect' };
    const payload = publicPayload(event);
    expect(payload).toEqual({
      event: 'social_account_disconnected', user_email: 'op@example.test', platform: 'youtube', account_name: 'My Channel', status: 'disconnected', reason: 'manual_disconnect', created_at: base.created_at,
    });
    expect(payload).not.toHaveProperty('account_id');
  });

  it('social_account_reauth_required: with reason', () => {
    const event: SocialAccountReauthRequiredEvent = { ...base, event: 'social_account_reauth_required', status: 'reauth_required', reason: 'token_refresh_threshold_exceeded', profile_username: 'bob' };
    expect(publicPayload(event)).toEqual({
      event: 'social_account_reauth_required', user_email: 'op@example.test', platform: 'youtube', account_name: 'My Channel', status: 'reauth_required', profile_username: 'bob',
      reason: 'token_refresh_threshold_exceeded', created_at: base.created_at,
    });
  });

  it('reads as a short message in chat channels', () => {
    expect(chatText(publicPayload(anUploadCompletedEvent({ title: 'Hello', platform: 'x', profile_username: 'alice' })))).toBe('✅ Published to x (profile alice)\n“Hello”\nhttps://x.example.test/post-1');
    expect(chatText(publicPayload(anUploadCompletedEvent({ result: { success: false, url: null, publish_id: null, post_id: null, error: 'too long' } })))).toContain('Error: too long');
    expect(chatText(publicPayload({ ...base, event: 'social_account_reauth_required', status: 'reauth_required', reason: 'max_auth_strikes' }))).toBe('⚠️ youtube account My Channel needs to be reconnected: max_auth_strikes');
  });
});
