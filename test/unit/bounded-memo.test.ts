import { BoundedMemo } from '../../adapters/bounded-memo';

describe('BoundedMemo', () => {
  it('computes once per key, drops the least recently used past its bound, never keeps a throw or a refused value', () => {
    let runs = 0;
    const memo = new BoundedMemo<string>(2, (key) => key !== 'big');
    const get = (k: string) => memo.get(k, () => { runs += 1; return k.toUpperCase(); });
    expect([get('a'), get('b'), get('a')]).toEqual(['A', 'B', 'A']);
    expect(runs).toBe(2);
    get('c'); // drops b, the least recently used
    get('a');
    expect(runs).toBe(3);
    get('b');
    expect(runs).toBe(4);
    get('big');
    get('big');
    expect(runs).toBe(6);
    expect(() => memo.get('x', () => { throw new Error('no'); })).toThrow('no');
    expect(memo.get('x', () => 'X')).toBe('X');
    const off = new BoundedMemo<number>(0);
    let n = 0;
    off.get('k', () => ++n);
    off.get('k', () => ++n);
    expect(n).toBe(2);
  });
});
