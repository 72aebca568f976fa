import { connectRefused, failureErrorCode, PlatformError, type PlatformFailure } from '../../core/domain/errors';
import { errorBody, fromPlatformError } from '../../apps/api/http-errors';

describe('error codes of failed targets', () => {
  it('uses the restriction reason, or its own code where the spec names one', () => {
    const until = new Date();
    expect(failureErrorCode({ kind: 'restricted', reason: 'spam_restricted', until })).toBe('spam_restricted');
    expect(failureErrorCode({ kind: 'restricted', reason: 'daily_upload_limit', code: 'youtube_channel_daily_limit', until })).toBe('youtube_channel_daily_limit');
    expect(failureErrorCode({ kind: 'checkpoint' })).toBe('account_checkpoint_required');
    expect(failureErrorCode({ kind: 'auth_expired', reason: 'x' })).toBe('reauth_required');
    expect(failureErrorCode({ kind: 'invalid_content', code: 'tiktok_privacy_unavailable' })).toBe('tiktok_privacy_unavailable');
    expect(failureErrorCode({ kind: 'rejected' })).toBe('platform_rejected');
  });
});

describe('network answers to synchronous calls, by kind', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const map = (failure: PlatformFailure) => {
    const err = fromPlatformError(new PlatformError('youtube', failure, 'the network said no'), now);
    return { kind: err.kind, code: err.errorCode, details: err.details, body: errorBody(err) };
  };

  it('an expired authorization is a 409 asking for a reconnect', () => {
    expect(map({ kind: 'auth_expired', reason: 'invalid_grant' })).toMatchObject({ kind: 'conflict', code: 'reauth_required', details: { reauth_required: true } });
  });
  it("content the network refuses is the caller's 400, with the network's code", () => {
    expect(map({ kind: 'invalid_content', code: 'text_too_long' })).toMatchObject({ kind: 'invalid_input', code: 'text_too_long' });
    expect(map({ kind: 'unsupported' })).toMatchObject({ kind: 'invalid_input', code: 'platform_not_supported' });
  });
  it('a paused account and a throttling network are 429 with when to come back', () => {
    expect(map({ kind: 'restricted', reason: 'daily_upload_limit', code: 'youtube_channel_daily_limit', until: new Date(now.getTime() + 7_200_000) }))
      .toMatchObject({ kind: 'too_many_requests', code: 'youtube_channel_daily_limit', details: { retry_after_seconds: 7200, restriction_reason: 'daily_upload_limit' } });
    expect(map({ kind: 'rate_limited', retryAfterMs: 1500 })).toMatchObject({ kind: 'too_many_requests', code: 'platform_rate_limited', details: { retry_after_seconds: 2 } });
  });
  it("a refusal is a 502 with the network's message", () => {
    const refused = map({ kind: 'rejected', code: 'comments_disabled' });
    expect(refused).toMatchObject({ kind: 'platform_rejected', code: 'comments_disabled' });
    expect(refused.body.message).toContain('the network said no');
  });
  it('connecting keeps its own mapping: refused credentials are 400 invalid_credentials', () => {
    const err = connectRefused(new PlatformError('discord', { kind: 'auth_expired', reason: 'token_revoked' }, 'Unknown Webhook'));
    expect([err.kind, err.errorCode]).toEqual(['invalid_input', 'invalid_credentials']);
    expect(connectRefused(new PlatformError('discord', { kind: 'transient' }, 'down')).errorCode).toBe('platform_unavailable');
  });
});
