import { authenticate } from '../../core/usecases/authenticate';
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

  it('blocks an address after ten consecutive failures, even for a good key', async () => {
    const world = aWorld();
    const { secret } = await world.operator();
    for (let i = 1; i <= 9; i += 1) {
      await expect(authenticate(world.deps, { authorization: 'Apikey wrong', address: '9.9.9.9' }))
        .rejects.toMatchObject({ kind: 'unauthenticated' });
    }
    await expect(authenticate(world.deps, { authorization: 'Apikey wrong', address: '9.9.9.9' }))
      .rejects.toMatchObject({ kind: 'too_many_requests', errorCode: 'auth_blocked', details: { retry_after_seconds: 300 } });
    await expect(authenticate(world.deps, { authorization: `Apikey ${secret}`, address: '9.9.9.9' }))
      .rejects.toMatchObject({ kind: 'too_many_requests', errorCode: 'auth_blocked' });
    // Another address is not affected.
    await expect(authenticate(world.deps, { authorization: `Apikey ${secret}`, address: '9.9.9.8' })).resolves.toBeDefined();
  });

  it('counts only consecutive failures: a success resets the count', async () => {
    const world = aWorld();
    const { secret } = await world.operator();
    for (let i = 0; i < 9; i += 1) {
      await expect(authenticate(world.deps, { authorization: 'Apikey wrong', address: '8.8.8.8' })).rejects.toBeDefined();
    }
    await authenticate(world.deps, { authorization: `Apikey ${secret}`, address: '8.8.8.8' });
    for (let i = 0; i < 9; i += 1) {
      await expect(authenticate(world.deps, { authorization: 'Apikey wrong', address: '8.8.8.8' }))
        .rejects.toMatchObject({ kind: 'unauthenticated' });
    }
  });
});
