import { checkBody } from '../bench/load-client';

describe("the list benches' body check", () => {
  it('passes an array of exactly the expected length at the key path', () => {
    expect(checkBody({ media: [1, 2, 3] }, { array: ['media'], length: 3 })).toBeUndefined();
    expect(checkBody({ thread: { replies: [{}, {}] } }, { array: ['thread', 'replies'], length: 2 })).toBeUndefined();
  });

  it('says what is wrong otherwise', () => {
    expect(checkBody({ media: [1, 2] }, { array: ['media'], length: 3 })).toBe('2 items at media, expected 3');
    expect(checkBody({ success: false, error: 'x' }, { array: ['media'], length: 3 })).toBe('no array at media');
    expect(checkBody({ thread: null }, { array: ['thread', 'replies'], length: 2 })).toBe('no array at thread.replies');
    expect(checkBody(null, { array: ['data'], length: 1 })).toBe('no array at data');
  });
});
