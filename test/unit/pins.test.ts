import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { deletePin, getPin, setPin } from '../../core/usecases/pins';
import { createProfile } from '../../core/usecases/profiles';
import { submitUpload } from '../../core/usecases/submit-upload';
import { fakeTextPlatform } from '../support/fake-platform';
import { aWorld } from '../support/world';

describe('pinned pages', () => {
  it('a page pinned to the profile wins over the request parameter, until it is removed', async () => {
    const world = aWorld();
    const facebook = fakeTextPlatform('facebook', { settings: { fields: [{ name: 'facebook_page_id', type: 'string', endpoints: ['text'] }] } });
    const deps = { ...world.deps, platforms: createPlatformRegistry([facebook.adapter]) };
    const { account } = await world.operator();
    await createProfile(deps, account, { username: 'alice' });
    await connectWithCredentials(deps, account, 'facebook', { profile_username: 'alice', secret: 'good' });
    const post = (fields: Record<string, unknown>) => submitUpload(deps, account, {
      kind: 'text', profileUsername: 'alice', platforms: ['facebook'], title: `t${Math.random()}`, media: [], fields, async: true, warnings: [], syncTimeoutMs: 10,
    });

    expect(await setPin(deps.storage, account, 'facebook-page', { profile_username: 'alice', page_id: 'pinned-1' })).toEqual({ profile_username: 'alice', page_id: 'pinned-1' });
    expect(await getPin(deps.storage, account, 'facebook-page', 'alice')).toEqual({ profile_username: 'alice', page_id: 'pinned-1' });
    expect((await post({ facebook_page_id: 'from-request' })).upload.targets[0]!.settings).toEqual({ facebook_page_id: 'pinned-1' });
    // Pins of other kinds are not request fields: no "ignored" warning for them.
    await setPin(deps.storage, account, 'google-business-location', { profile_username: 'alice', location_id: 'loc-9' });
    expect((await post({})).upload.warnings).toEqual([]);

    await deletePin(deps.storage, account, 'facebook-page', 'alice');
    expect(await getPin(deps.storage, account, 'facebook-page', 'alice')).toEqual({ profile_username: 'alice', page_id: null });
    expect((await post({ facebook_page_id: 'from-request' })).upload.targets[0]!.settings).toEqual({ facebook_page_id: 'from-request' });
    await expect(setPin(deps.storage, account, 'linkedin-page', { profile_username: 'ghost', page_id: '1' })).rejects.toMatchObject({ errorCode: 'PROFILE_NOT_FOUND' });
    await expect(setPin(deps.storage, account, 'linkedin-page', { profile_username: 'alice' })).rejects.toMatchObject({ kind: 'invalid_input' });
  });
});
