import { facebookPostIdFromUrl, facebookPostIds } from '../../adapters/platforms/facebook/post-ids';
import { NETWORKS } from '../../adapters/platforms';
import { commentNetworks, commentPlatformsFor as platformsFor, type CommentOperation } from '../../core/domain/comments';
import { HeraldError } from '../../core/domain/errors';
import type { Platform } from '../../core/domain/platforms';
import type { CommentAction } from '../../core/ports/platform';
import { postIdOf, validateCommentRequest as validate } from '../../core/usecases/comments';

/** The rules every network declares in its descriptor, as the use case reads them from the registry. */
const networks = commentNetworks(NETWORKS.map((n) => n.descriptor));
const validateCommentRequest = (operation: CommentOperation, input: Parameters<typeof validate>[2]) => validate(networks, operation, input);
const commentPlatformsFor = (operation: CommentOperation, action?: CommentAction) => platformsFor(networks, operation, action);

function refusal(fn: () => unknown): HeraldError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HeraldError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}
const base = (platform: Platform, fields: Record<string, unknown> = {}) => ({ platform, user: 'nina', ...fields });

describe('comment requests: exactly one target', () => {
  it('create on an any-target network takes exactly one of comment_id / post_id / post_url', () => {
    expect(() => validateCommentRequest('create', base('facebook', { postId: '1_2' }))).not.toThrow();
    expect(() => validateCommentRequest('create', base('facebook', { commentId: '2_3' }))).not.toThrow();
    expect(refusal(() => validateCommentRequest('create', base('facebook', { postId: '1_2', commentId: '2_3' })))).toMatchObject({
      kind: 'invalid_input', errorCode: 'multiple_targets', message: 'Send exactly one of comment_id / post_id / post_url; got comment_id and post_id.',
    });
    expect(refusal(() => validateCommentRequest('create', base('x', {})))).toMatchObject({ kind: 'invalid_input', errorCode: 'missing_target' });
  });

  it('Instagram creates replies only: comment_id is required, and alone', () => {
    expect(refusal(() => validateCommentRequest('create', base('instagram', { postId: '1' })))).toMatchObject({
      kind: 'invalid_input', message: 'instagram comments are created as replies: comment_id is required.',
    });
    expect(refusal(() => validateCommentRequest('create', base('instagram', { postId: '1', commentId: '2' })))).toMatchObject({ errorCode: 'multiple_targets' });
    expect(() => validateCommentRequest('create', base('instagram', { commentId: '2' }))).not.toThrow();
  });

  it('TikTok always needs post_id; comment_id beside it makes a reply', () => {
    expect(refusal(() => validateCommentRequest('create', base('tiktok', { commentId: '2' })))).toMatchObject({ message: 'tiktok: post_id is always required (comment_id makes the comment a reply).' });
    expect(() => validateCommentRequest('create', base('tiktok', { postId: '1', commentId: '2' }))).not.toThrow();
    expect(() => validateCommentRequest('create', base('tiktok', { postId: '1' }))).not.toThrow();
  });

  it('listing needs post_id or post_url, not both; comment_id (replies) is TikTok only and needs post_id', () => {
    expect(refusal(() => validateCommentRequest('list', base('youtube')))).toMatchObject({ errorCode: 'missing_target', message: 'post_id or post_url is required.' });
    expect(refusal(() => validateCommentRequest('list', base('youtube', { postId: 'a', postUrl: 'https://youtu.be/a' })))).toMatchObject({ errorCode: 'multiple_targets' });
    expect(refusal(() => validateCommentRequest('list', base('youtube', { postId: 'a', commentId: 'c' })))).toMatchObject({ errorCode: 'platform_not_supported', details: { supported_platforms: ['tiktok'] } });
    expect(() => validateCommentRequest('list', base('tiktok', { postId: 'v', commentId: 'c' }))).not.toThrow();
  });

  it('Facebook attachments are Facebook fields, one at a time', () => {
    expect(refusal(() => validateCommentRequest('create', base('x', { postId: '1', attachmentUrl: 'https://a.example/i.jpg' })))).toMatchObject({ details: { field: 'attachment_url' } });
    expect(refusal(() => validateCommentRequest('create', base('facebook', { postId: '1_2', attachmentUrl: 'https://a', attachmentShareUrl: 'https://b' })))).toMatchObject({ kind: 'invalid_input' });
  });
});

describe('comment requests: required fields per network', () => {
  it('delete needs comment_id, and post_id on LinkedIn only', () => {
    expect(refusal(() => validateCommentRequest('delete', base('facebook')))).toMatchObject({ message: 'comment_id is required.' });
    expect(refusal(() => validateCommentRequest('delete', base('linkedin', { commentId: '7' })))).toMatchObject({ details: { field: 'post_id' } });
    expect(() => validateCommentRequest('delete', base('linkedin', { commentId: '7', postId: 'urn:li:share:1' }))).not.toThrow();
  });

  it('Threads cannot delete: platform_not_supported naming those that can', () => {
    const err = refusal(() => validateCommentRequest('delete', base('threads', { commentId: '1' })));
    expect(err).toMatchObject({ kind: 'invalid_input', errorCode: 'platform_not_supported', details: { supported_platforms: commentPlatformsFor('delete') } });
    // The spec's networks that delete comments, in the API's platform order (a network added later joins the list).
    expect(commentPlatformsFor('delete')).toEqual(expect.arrayContaining(['tiktok', 'instagram', 'linkedin', 'youtube', 'facebook', 'x', 'bluesky']));
    expect(commentPlatformsFor('delete')).not.toContain('threads');
    expect(err.message).toBe(`threads cannot delete comments. Networks that can: ${commentPlatformsFor('delete').join(', ')}.`);
  });

  it('actions: each network its own verbs, post_id where the network needs it, message for edit, ban_author with YouTube hide only', () => {
    expect(refusal(() => validateCommentRequest('action', base('facebook', { action: 'pin', commentId: '1' })))).toMatchObject({
      errorCode: 'platform_not_supported', details: { supported_platforms: ['tiktok'] },
    });
    expect(refusal(() => validateCommentRequest('action', base('x', { action: 'hide', commentId: '1' })))).toMatchObject({ errorCode: 'platform_not_supported' });
    expect(refusal(() => validateCommentRequest('action', base('youtube', { action: 'hold', commentId: '1' })))).toMatchObject({ details: { field: 'post_id' } });
    expect(refusal(() => validateCommentRequest('action', base('tiktok', { action: 'pin', commentId: '1' })))).toMatchObject({ details: { field: 'post_id' } });
    expect(() => validateCommentRequest('action', base('tiktok', { action: 'like', commentId: '1' }))).not.toThrow();
    expect(refusal(() => validateCommentRequest('action', base('facebook', { action: 'edit', commentId: '1' })))).toMatchObject({ details: { field: 'message' } });
    expect(refusal(() => validateCommentRequest('action', base('youtube', { action: 'unhide', commentId: '1', postId: 'v', banAuthor: true })))).toMatchObject({ details: { field: 'ban_author' } });
    expect(() => validateCommentRequest('action', base('youtube', { action: 'hide', commentId: '1', postId: 'v', banAuthor: true }))).not.toThrow();
    // Instagram's post actions take no comment_id, but post_id.
    expect(() => validateCommentRequest('action', base('instagram', { action: 'disable_comments', postId: 'm' }))).not.toThrow();
    expect(refusal(() => validateCommentRequest('action', base('instagram', { action: 'enable_comments' })))).toMatchObject({ details: { field: 'post_id' } });
    expect(refusal(() => validateCommentRequest('action', base('instagram', { action: 'hide' })))).toMatchObject({ details: { field: 'comment_id' } });
  });

  it('a network outside the table answers platform_not_supported for every operation', () => {
    expect(refusal(() => validateCommentRequest('list', base('pinterest', { postId: '1' })))).toMatchObject({ errorCode: 'platform_not_supported' });
    expect(refusal(() => validateCommentRequest('reply', base('facebook', { commentId: '1' })))).toMatchObject({ errorCode: 'platform_not_supported', details: { supported_platforms: ['instagram'] } });
  });
});

describe('Facebook post ids and links', () => {
  it('reads page posts, videos and reels; refuses share links, short links and pfbid permalinks', () => {
    expect(facebookPostIdFromUrl('https://www.facebook.com/123/posts/456')).toBe('123_456');
    expect(facebookPostIdFromUrl('https://www.facebook.com/permalink.php?story_fbid=456&id=123')).toBe('123_456');
    expect(facebookPostIdFromUrl('https://www.facebook.com/watch/?v=789')).toBe('789');
    expect(facebookPostIdFromUrl('https://www.facebook.com/reel/789')).toBe('789');
    expect(facebookPostIdFromUrl('https://www.facebook.com/mypage/videos/789/')).toBe('789');
    expect(facebookPostIdFromUrl('https://www.facebook.com/share/p/1AbCdEf/')).toBeUndefined();
    expect(facebookPostIdFromUrl('https://fb.watch/abc123/')).toBeUndefined();
    expect(facebookPostIdFromUrl('https://www.facebook.com/mypage/posts/pfbid02abcDEF')).toBeUndefined();
    expect(facebookPostIdFromUrl('not a url')).toBeUndefined();
  });

  it('post_id must be a video id or {page_id}_{post_id}; an unreadable post_url is invalid_post_url', () => {
    expect(postIdOf('facebook', facebookPostIds, { postId: '123_456' })).toBe('123_456');
    expect(refusal(() => postIdOf('facebook', facebookPostIds, { postId: 'pfbid02abc' }))).toMatchObject({ errorCode: 'invalid_post_id' });
    expect(refusal(() => postIdOf('facebook', facebookPostIds, { postUrl: 'https://fb.me/xyz' }))).toMatchObject({ kind: 'invalid_input', errorCode: 'invalid_post_url' });
    expect(postIdOf('youtube', { postIdFromUrl: (u) => (u.includes('v=') ? 'vid' : undefined) }, { postUrl: 'https://youtube.com/watch?v=vid' })).toBe('vid');
  });
});
