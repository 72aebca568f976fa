import { cacheProfiles } from '../../adapters/cache/profiles';
import { createMemoryProfiles } from '../../adapters/memory/profiles';
import type { Profile } from '../../core/domain/profile';
import type { ProfileRepository } from '../../core/ports/storage/profiles';

/** The API's per-process profile cache: fewer reads, and never an answer older than its bound or this process's own write. */
function setup(ttlMs = 5_000) {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const inner = createMemoryProfiles();
  let reads = 0;
  const counted: ProfileRepository = { ...inner, find: async (a, u) => { reads += 1; return inner.find(a, u); } };
  const cached = cacheProfiles(counted, { ttlMs, clock: { now: () => new Date(now) } });
  const profile = (username: string): Profile => ({ accountId: 'acc', username, createdAt: new Date(now) } as Profile);
  return { inner, cached, profile, reads: () => reads, advance: (ms: number) => { now += ms; } };
}

describe('profile cache', () => {
  it('reads a profile once within the bound, again after it', async () => {
    const t = setup();
    await t.inner.insert(t.profile('alice'));
    expect((await t.cached.find('acc', 'alice'))?.username).toBe('alice');
    t.advance(4_999);
    expect((await t.cached.find('acc', 'alice'))?.username).toBe('alice');
    expect(t.reads()).toBe(1);
    t.advance(2);
    await t.cached.find('acc', 'alice');
    expect(t.reads()).toBe(2);
  });

  it('keeps no miss: a profile created by another process is found at once', async () => {
    const t = setup();
    expect(await t.cached.find('acc', 'bob')).toBeNull();
    await t.inner.insert(t.profile('bob'));
    expect((await t.cached.find('acc', 'bob'))?.username).toBe('bob');
  });

  it("drops the entry at this process's own writes", async () => {
    const t = setup();
    await t.cached.insert(t.profile('carol'));
    await t.cached.find('acc', 'carol');
    await t.cached.setPin('acc', 'carol', 'facebook_page_id', '123');
    expect((await t.cached.find('acc', 'carol'))?.pins).toEqual({ facebook_page_id: '123' });
    await t.cached.setUiLabels('acc', 'carol', { title: 'Hi' });
    expect((await t.cached.find('acc', 'carol'))?.uiLabels).toEqual({ title: 'Hi' });
    expect(await t.cached.delete('acc', 'carol')).toBe(true);
    expect(await t.cached.find('acc', 'carol')).toBeNull();
  });

  it('does not keep what a read found when a write of the same profile ran meanwhile', async () => {
    const t = setup();
    await t.inner.insert(t.profile('dave'));
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const slow = cacheProfiles({ ...t.inner, find: async (a, u) => { const p = await t.inner.find(a, u); await gate; return p; } }, { ttlMs: 5_000, clock: { now: () => new Date() } });
    const racing = slow.find('acc', 'dave');
    await slow.delete('acc', 'dave');
    release();
    expect((await racing)?.username).toBe('dave');
    expect(await slow.find('acc', 'dave')).toBeNull();
  });

  it('answers copies: a caller changing its profile changes nothing cached', async () => {
    const t = setup();
    await t.inner.insert(t.profile('erin'));
    const first = (await t.cached.find('acc', 'erin'))!;
    first.username = 'changed';
    expect((await t.cached.find('acc', 'erin'))?.username).toBe('erin');
  });

  it('is the repository itself with a zero bound', () => {
    const inner = createMemoryProfiles();
    expect(cacheProfiles(inner, { ttlMs: 0, clock: { now: () => new Date() } })).toBe(inner);
  });
});
