import { AuthCache, authenticate } from '../../core/usecases/authenticate';
import { revokeApiKey, listApiKeys } from '../../core/usecases/operator-accounts';
import { aWorld } from '../support/world';

describe('authenticate', () => {
  it('resolves "Apikey <key>" to its account', async () => {
    const world = aWorld();
    const { account, secret } = await world.operator();
    const caller = await authenticate(world.deps, { authorization: `Apikey ${secret}`, address: '10.0.0.1' });
    expect(caller.account.id).toBe(account.id);
  });

  it('answers 401 for a missing header, naming the header to send', async () => {
    const world = aWorld();
    await expect(authenticate(world.deps, { address: '1.1.1.1' }))
      .rejects.toMatchObject({ kind: 'unauthenticated', message: expect.stringContaining('Authorization: Apikey') });
  });

  it('answers 401 for an unknown key and for a revoked key', async () => {
    const world = aWorld();
    const { account, secret } = await world.operator();
    await expect(authenticate(world.deps, { authorization: 'Apikey hk_nope', address: '1.1.1.2' }))
      .rejects.toMatchObject({ kind: 'unauthenticated', message: 'Invalid API key.' });
    const [key] = await listApiKeys(world.deps, { email: account.email });
    await revokeApiKey(world.deps, { email: account.email, keyId: key.id });
    await expect(authenticate(world.deps, { authorization: `Apikey ${secret}`, address: '1.1.1.3' }))
      .rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('answers 401 to ten consecutive failures, then blocks the address (the 11th is the first 429), even for a good key', async () => {
    const world = aWorld();
    const { account, secret } = await world.operator();
    // The tenth failure starts the block but is still answered as what it is: bad credentials.
    for (let i = 1; i <= 10; i += 1) {
      await expect(authenticate(world.deps, { authorization: 'Apikey wrong', address: '9.9.9.9' }))
        .rejects.toMatchObject({ kind: 'unauthenticated' });
    }
    await expect(authenticate(world.deps, { authorization: 'Apikey wrong', address: '9.9.9.9' }))
      .rejects.toMatchObject({ kind: 'too_many_requests', errorCode: 'auth_blocked', details: { retry_after_seconds: 300 } });
    await expect(authenticate(world.deps, { authorization: `Apikey ${secret}`, address: '9.9.9.9' }))
      .rejects.toMatchObject({ kind: 'too_many_requests', errorCode: 'auth_blocked' });
    // Another address is not affected.
    await expect(authenticate(world.deps, { authorization: `Apikey ${secret}`, address: '9.9.9.8' })).resolves.toMatchObject({ account: { id: account.id } });
  });

  it('does not count requests that present no credential: they never block the address', async () => {
    const world = aWorld();
    const { account, secret } = await world.operator();
    const failures = jest.spyOn(world.deps.guard, 'recordFailure');
    for (const authorization of [undefined, '', 'Apikey', 'Basic dXNlcjpwYXNz', 'Bearer connect-token']) {
      for (let i = 0; i < 10; i += 1) {
        await expect(authenticate(world.deps, { ...(authorization !== undefined ? { authorization } : {}), address: '5.5.5.5' }))
          .rejects.toMatchObject({ kind: 'unauthenticated' });
      }
    }
    expect(failures).not.toHaveBeenCalled();
    await expect(authenticate(world.deps, { authorization: `Apikey ${secret}`, address: '5.5.5.5' })).resolves.toMatchObject({ account: { id: account.id } });
  });

  it('counts only consecutive failures: a success resets the count', async () => {
    const world = aWorld();
    const { secret } = await world.operator();
    for (let i = 0; i < 9; i += 1) {
      await expect(authenticate(world.deps, { authorization: 'Apikey wrong', address: '8.8.8.8' })).rejects.toMatchObject({ kind: 'unauthenticated' });
    }
    await authenticate(world.deps, { authorization: `Apikey ${secret}`, address: '8.8.8.8' });
    for (let i = 0; i < 9; i += 1) {
      await expect(authenticate(world.deps, { authorization: 'Apikey wrong', address: '8.8.8.8' }))
        .rejects.toMatchObject({ kind: 'unauthenticated' });
    }
  });

  describe('with an auth cache', () => {
    const cached = (world: ReturnType<typeof aWorld>, ttlMs = 5_000) => ({ ...world.deps, authCache: new AuthCache(ttlMs) });

    it('reads the database once per key and bound, and honours a revocation once the bound has passed', async () => {
      const world = aWorld();
      const { account, secret } = await world.operator();
      const deps = cached(world);
      const lookups = jest.spyOn(world.deps.storage.apiKeys, 'findByHash');
      const auth = () => authenticate(deps, { authorization: `Apikey ${secret}`, address: '7.7.7.7' });
      for (let i = 0; i < 3; i += 1) expect((await auth()).account.id).toBe(account.id);
      expect(lookups).toHaveBeenCalledTimes(1);

      const [key] = await listApiKeys(world.deps, { email: account.email });
      await revokeApiKey(world.deps, { email: account.email, keyId: key.id });
      // Revoked elsewhere (the CLI): this process may go on accepting the key until the bound...
      world.advance(4_999);
      await expect(auth()).resolves.toMatchObject({ account: { id: account.id } });
      // ...and never after it.
      world.advance(1);
      await expect(auth()).rejects.toMatchObject({ kind: 'unauthenticated', message: 'Invalid API key.' });
      world.advance(60_000);
      await expect(auth()).rejects.toMatchObject({ kind: 'unauthenticated' });
    });

    it('looks a key up once for requests arriving together when its entry has expired', async () => {
      const world = aWorld();
      const { account, secret } = await world.operator();
      const deps = cached(world);
      const lookups = jest.spyOn(world.deps.storage.apiKeys, 'findByHash');
      const auth = () => authenticate(deps, { authorization: `Apikey ${secret}`, address: '7.7.7.8' });
      const first = await Promise.all(Array.from({ length: 20 }, auth));
      expect(first.every((c) => c.account.id === account.id)).toBe(true);
      expect(lookups).toHaveBeenCalledTimes(1);
      world.advance(5_001);
      await Promise.all(Array.from({ length: 20 }, auth));
      expect(lookups).toHaveBeenCalledTimes(2);
      // Unknown keys share a lookup too, and every request still counts as a failure.
      const failures = jest.spyOn(world.deps.guard, 'recordFailure');
      const bad = await Promise.allSettled(Array.from({ length: 3 }, () => authenticate(deps, { authorization: 'Apikey hk_unknown', address: '7.7.7.9' })));
      expect(bad.every((r) => r.status === 'rejected')).toBe(true);
      expect(failures).toHaveBeenCalledTimes(3);
    });

    it('hashes a key that verified once, and an unknown key on every request', async () => {
      const world = aWorld();
      const { secret } = await world.operator();
      const deps = cached(world);
      const hashed: string[] = [];
      const hasher = { ...deps.hasher, hash: (s: string) => { hashed.push(s); return deps.hasher.hash(s); } };
      for (let i = 0; i < 3; i += 1) await authenticate({ ...deps, hasher }, { authorization: `Apikey ${secret}`, address: '10.1.0.1' });
      expect(hashed).toEqual([secret]);
      for (let i = 0; i < 2; i += 1) await expect(authenticate({ ...deps, hasher }, { authorization: 'Apikey hk_unknown', address: '10.1.0.2' })).rejects.toMatchObject({ kind: 'unauthenticated' });
      expect(hashed).toEqual([secret, 'hk_unknown', 'hk_unknown']);
    });

    it('does not keep unknown keys: a key is usable as soon as it is issued', async () => {
      const world = aWorld();
      const deps = cached(world);
      const { account, secret } = await world.operator();
      await expect(authenticate(deps, { authorization: 'Apikey hk_unknown', address: '7.7.7.8' })).rejects.toMatchObject({ kind: 'unauthenticated' });
      await expect(authenticate(deps, { authorization: `Apikey ${secret}`, address: '7.7.7.8' })).resolves.toMatchObject({ account: { id: account.id } });
    });

    it('reads the guard once per address and bound for a known key; its own failures count at once', async () => {
      const world = aWorld();
      const { secret } = await world.operator();
      const deps = cached(world);
      const checks = jest.spyOn(world.deps.guard, 'check');
      const good = () => authenticate(deps, { authorization: `Apikey ${secret}`, address: '6.6.6.6' });
      for (let i = 0; i < 5; i += 1) await good();
      expect(checks).toHaveBeenCalledTimes(1);
      // Ten failures seen by this process block the address for the very next request.
      for (let i = 0; i < 10; i += 1) {
        await expect(authenticate(deps, { authorization: 'Apikey wrong', address: '6.6.6.6' })).rejects.toMatchObject({ kind: 'unauthenticated' });
      }
      await expect(good()).rejects.toMatchObject({ kind: 'too_many_requests', errorCode: 'auth_blocked' });
    });

    it('honours a block recorded by another API process once the bound has passed', async () => {
      const world = aWorld();
      const { account, secret } = await world.operator();
      const deps = cached(world);
      const good = () => authenticate(deps, { authorization: `Apikey ${secret}`, address: '6.6.6.7' });
      await good();
      // Another process sees ten failures from this address (same guard store, not this cache).
      for (let i = 0; i < 10; i += 1) await world.deps.guard.recordFailure('6.6.6.7');
      world.advance(4_999);
      await expect(good()).resolves.toMatchObject({ account: { id: account.id } });
      world.advance(1);
      await expect(good()).rejects.toMatchObject({ kind: 'too_many_requests', errorCode: 'auth_blocked' });
    });

    it('writes lastUsedAt at most once a minute per key, and a clean address costs no guard reset', async () => {
      const world = aWorld();
      const { secret } = await world.operator();
      const deps = cached(world);
      const touches = jest.spyOn(world.deps.storage.apiKeys, 'touch');
      const resets = jest.spyOn(world.deps.guard, 'recordSuccess');
      for (let second = 0; second < 150; second += 1) {
        await authenticate(deps, { authorization: `Apikey ${secret}`, address: '7.7.7.9' });
        world.advance(1_000);
      }
      // At 0 s (never used), then when more than a minute has passed: 61 s and 122 s.
      expect(touches).toHaveBeenCalledTimes(3);
      expect(resets).not.toHaveBeenCalled();
    });

    it('keeps nothing with a bound of 0 ms', async () => {
      const world = aWorld();
      const { secret } = await world.operator();
      const deps = cached(world, 0);
      const lookups = jest.spyOn(world.deps.storage.apiKeys, 'findByHash');
      const checks = jest.spyOn(world.deps.guard, 'check');
      await authenticate(deps, { authorization: `Apikey ${secret}`, address: '7.7.7.10' });
      await authenticate(deps, { authorization: `Apikey ${secret}`, address: '7.7.7.10' });
      expect(lookups).toHaveBeenCalledTimes(2);
      expect(checks).toHaveBeenCalledTimes(2);
    });
  });
});
