import { decodePageCursor, encodePageCursor, listFingerprint } from '../../core/domain/page-cursor';

describe('page cursors', () => {
  it('a fingerprint is short, stable for the same filters in any order, and differs between filters and lists', () => {
    const f = listFingerprint('history', { platform: 'x', status: 'completed', start: new Date('2026-01-01T00:00:00Z') });
    expect(f).toMatch(/^[A-Za-z0-9_-]{8,16}$/);
    expect(listFingerprint('history', { start: new Date('2026-01-01T00:00:00Z'), status: 'completed', platform: 'x' })).toBe(f);
    const others = [
      listFingerprint('history', { platform: 'x', status: 'pending', start: new Date('2026-01-01T00:00:00Z') }),
      listFingerprint('history', { platform: 'x', status: 'completed', start: new Date('2026-01-01T00:00:01Z') }),
      listFingerprint('media-jobs', {}),
      listFingerprint('media-consumption', { month: '2026-03' }),
      listFingerprint('media-consumption', { month: '2026-04' }),
    ];
    expect(new Set([f, ...others]).size).toBe(others.length + 1);
  });

  it('reads back what it encoded, and refuses another list\'s cursor or text that is not a cursor', () => {
    const f = listFingerprint('media-jobs', {});
    const position = { hour: '2026-03-10T12', t: Date.parse('2026-03-10T12:34:56Z'), id: 'mj_1' };
    expect(decodePageCursor(encodePageCursor(position, f), f)).toEqual(position);
    expect(() => decodePageCursor(encodePageCursor(position, f), listFingerprint('media-consumption', { month: '2026-03' }))).toThrow(expect.objectContaining({ errorCode: 'invalid_cursor' }));
    for (const text of ['', 'not a cursor', 'e30', Buffer.from('{"v":1}').toString('base64url')]) {
      expect(() => decodePageCursor(text, f)).toThrow(expect.objectContaining({ errorCode: 'invalid_cursor' }));
    }
  });
});
