import { failureErrorCode } from '../../core/domain/errors';

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
