import { createProfile, deleteProfile, getProfile, listProfiles } from '../../core/usecases/profiles';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { aWorld } from '../support/world';
import { openCredentials } from '../../core/usecases/connection-session';

describe('profiles', () => {
  it('creates, lists, reads and deletes a profile', async () => {
    const world = aWorld();
    const { account } = await world.operator('basic');
    const created = await createProfile(world.deps, account, { username: 'alice' });
    // The spec shows created_at as an HTTP-date on create and as ISO-8601 on reads.
    expect(created).toEqual({ username: 'alice', created_at: 'Thu, 01 Jan 2026 00:00:00 GMT', social_accounts: {} });
    expect(await listProfiles(world.deps, account)).toMatchObject({ limit: 5, plan: 'basic', profiles: [{ username: 'alice', created_at: '2026-01-01T00:00:00.000Z' }] });
    expect(await getProfile(world.deps, account, 'alice')).toMatchObject({ username: 'alice', created_at: '2026-01-01T00:00:00.000Z' });
    await deleteProfile(world.deps, account, { username: 'alice' });
    await expect(getProfile(world.deps, account, 'alice')).rejects.toMatchObject({ kind: 'not_found', errorCode: 'PROFILE_NOT_FOUND' });
  });

  it('enforces the plan profile limit with 403 PROFILE_LIMIT_REACHED', async () => {
    const world = aWorld();
    const { account } = await world.operator('free');
    await createProfile(world.deps, account, { username: 'a' });
    await createProfile(world.deps, account, { username: 'b' });
    await expect(createProfile(world.deps, account, { username: 'c' }))
      .rejects.toMatchObject({ kind: 'forbidden', errorCode: 'PROFILE_LIMIT_REACHED' });
  });

  it('rejects a duplicate username with 409 and a bad one with 400', async () => {
    const world = aWorld();
    const { account } = await world.operator();
    await createProfile(world.deps, account, { username: 'alice' });
    await expect(createProfile(world.deps, account, { username: 'alice' })).rejects.toMatchObject({ kind: 'conflict' });
    await expect(createProfile(world.deps, account, { username: '' })).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(createProfile(world.deps, account, { username: 42 })).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(createProfile(world.deps, account, { username: 'has space' })).rejects.toMatchObject({ kind: 'invalid_input' });
  });

  it('reserves the words of the fixed /users/<word> paths (400 username_reserved), but still deletes such a profile', async () => {
    const world = aWorld();
    const { account } = await world.operator();
    for (const name of ['facebook-page', 'Validate-JWT', 'notifications']) {
      await expect(createProfile(world.deps, account, { username: name })).rejects.toMatchObject({ kind: 'invalid_input', errorCode: 'username_reserved' });
    }
    await world.deps.storage.profiles.insert({ accountId: account.id, username: 'preferences', createdAt: world.deps.clock.now(), uiLabels: {} });
    await expect(deleteProfile(world.deps, account, { username: 'preferences' })).resolves.toBeUndefined();
  });

  it('keeps profiles of different operators apart', async () => {
    const world = aWorld();
    const one = await world.operator();
    const two = await world.operator();
    await createProfile(world.deps, one.account, { username: 'same' });
    await createProfile(world.deps, two.account, { username: 'same' });
    await deleteProfile(world.deps, one.account, { username: 'same' });
    await expect(getProfile(world.deps, two.account, 'same')).resolves.toMatchObject({ username: 'same' });
  });

  it('shows connected accounts as social-account objects and stores credentials sealed', async () => {
    const world = aWorld();
    const { account } = await world.operator();
    await createProfile(world.deps, account, { username: 'alice' });
    const connection = await connectWithCredentials(world.deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    expect(connection.sealedCredentials).not.toContain('good');
    expect(openCredentials(world.deps, connection)).toEqual({ secret: 'good' });
    expect((await getProfile(world.deps, account, 'alice')).social_accounts).toEqual({
      discord: { username: 'discord-user-1', handle: '@discorduser', display_name: 'discord user', social_images: '', reauth_required: false },
    });
  });

  it('refuses connections for unknown profiles, reddit and networks without credential connect', async () => {
    const world = aWorld();
    const { account } = await world.operator();
    await expect(connectWithCredentials(world.deps, account, 'discord', { profile_username: 'ghost', secret: 'good' }))
      .rejects.toMatchObject({ kind: 'not_found', errorCode: 'PROFILE_NOT_FOUND' });
    await expect(connectWithCredentials(world.deps, account, 'reddit', { profile_username: 'ghost' }))
      .rejects.toMatchObject({ kind: 'unavailable', errorCode: 'reddit_unavailable' });
    await expect(connectWithCredentials(world.deps, account, 'tiktok', { profile_username: 'ghost' }))
      .rejects.toMatchObject({ kind: 'invalid_input', errorCode: 'platform_not_supported' });
  });
});
