import type { Collection, Db, Filter, UpdateFilter } from 'mongodb';
import { createAesSecretBox } from '../../adapters/crypto/node-crypto';
import { createMongoAgentOAuthStore } from '../../adapters/mongo/agent-oauth';
import { COLLECTIONS, type IdDoc } from '../../adapters/mongo/collections';
import { createMongoConnectedAccounts } from '../../adapters/mongo/connected-accounts';
import { createMongoNotificationSettings } from '../../adapters/mongo/notifications/settings';
import { resealStoredSecrets } from '../../adapters/mongo/reseal';
import { defaultNotificationSettings } from '../../core/domain/notifications';
import { SEALED_FIELDS } from '../../core/domain/sealed-fields';
import { openCredentials } from '../../core/usecases/connection-session';
import { sealedUnbound } from '../support/legacy-seal';
import { aConnectedAccount, T0 } from '../support/mothers';
import { useTestDatabase } from '../support/mongo-db';

/**
 * Issue 26: `herald secrets reseal` on the MongoDB-wire server at MONGODB_URI (FerretDB): every
 * value sealed before binding (v1) is sealed again bound to its record, whatever the batch size,
 * without overwriting a value another writer changed meanwhile.
 */
const KEY = Buffer.alloc(32, 4).toString('base64');
const db = useTestDatabase();
const SLACK = 'https://hooks.slack.com/services/T1/B1/plain-secret';

async function seeded() {
  const accounts = await createMongoConnectedAccounts(db());
  const settings = await createMongoNotificationSettings(db());
  const agents = await createMongoAgentOAuthStore(db());
  for (const profile of ['p1', 'p2', 'p3', 'p4', 'p5']) {
    await accounts.upsert(aConnectedAccount({ id: `conn-${profile}`, accountId: 'acc-1', profileUsername: profile, platform: 'x', sealedCredentials: sealedUnbound(KEY, JSON.stringify({ access_token: `at-${profile}` })) }));
  }
  await settings.save({ ...defaultNotificationSettings('acc-1', T0), webhookUrl: 'https://r.test/h', sealedWebhookSecret: sealedUnbound(KEY, 'whsec_old'), slackWebhookUrl: SLACK });
  await agents.clients.insert({ clientId: 'hmc_1', metadata: { client_name: 'agent' }, sealedSecret: sealedUnbound(KEY, 'client-secret'), createdAt: T0 });
  return { accounts, settings, agents };
}

describe('herald secrets reseal (mongo)', () => {
  afterEach(async () => {
    for (const name of [COLLECTIONS.connectedAccounts, COLLECTIONS.notificationSettings, 'agent_oauth_clients']) await db().collection(name).deleteMany({});
  });

  it('seals every unbound value again, bound to its record, in batches; a second run finds nothing', async () => {
    const { accounts, settings, agents } = await seeded();
    const reports = await resealStoredSecrets(db(), createAesSecretBox(KEY), { batch: 2 });
    const by = (field: string) => reports.find((r) => r.field === field)!;
    expect(by('sealedCredentials')).toMatchObject({ examined: 5, resealed: 5, changedMeanwhile: 0, unreadable: [] });
    expect(by('sealedWebhookSecret')).toMatchObject({ resealed: 1 });
    expect(by('sealedSecret')).toMatchObject({ resealed: 1 });
    expect(by('sealedSlackWebhookUrl')).toMatchObject({ resealed: 1 });

    const strict = createAesSecretBox(KEY, { acceptUnbound: false });
    const p3 = (await accounts.findById('conn-p3'))!;
    expect(openCredentials({ secrets: strict }, p3)).toEqual({ access_token: 'at-p3' });
    // Bound now: p3's credentials copied into p4's record do not open there.
    const p4 = (await accounts.findById('conn-p4'))!;
    expect(() => openCredentials({ secrets: strict }, { ...p4, sealedCredentials: p3.sealedCredentials })).toThrow();
    const migrated = (await settings.get('acc-1'))!;
    expect(strict.open(migrated.sealedWebhookSecret!, SEALED_FIELDS.webhookSecret('acc-1'))).toBe('whsec_old');
    expect(strict.open(migrated.sealedSlackWebhookUrl!, SEALED_FIELDS.slackWebhookUrl('acc-1'))).toBe(SLACK);
    expect(JSON.stringify(await db().collection(COLLECTIONS.notificationSettings).findOne({ _id: 'acc-1' } as object))).not.toContain('plain-secret');
    expect(strict.open((await agents.clients.find('hmc_1'))!.sealedSecret!, SEALED_FIELDS.agentClientSecret('hmc_1'))).toBe('client-secret');

    const again = await resealStoredSecrets(db(), createAesSecretBox(KEY));
    expect(again.every((r) => r.resealed === 0)).toBe(true);
  });

  it('writes nothing in a dry run, leaves values of another key alone, and keeps what a writer changed meanwhile', async () => {
    const { accounts } = await seeded();
    await accounts.updateCredentials('conn-p5', sealedUnbound(Buffer.alloc(32, 1).toString('base64'), '{}'), T0);
    const dry = await resealStoredSecrets(db(), createAesSecretBox(KEY), { dryRun: true });
    expect(dry.find((r) => r.field === 'sealedCredentials')).toMatchObject({ resealed: 4, unreadable: ['conn-p5'] });
    expect(createAesSecretBox(KEY).isUnbound((await accounts.findById('conn-p1'))!.sealedCredentials)).toBe(true);

    // A refresh lands between the reseal's read of conn-p2 and its write: the refresh's value stays.
    const refreshed = createAesSecretBox(KEY).seal('{"access_token":"refreshed"}', SEALED_FIELDS.connectionCredentials({ accountId: 'acc-1', profileUsername: 'p2', platform: 'x' }));
    const racing = Object.create(db()) as Db;
    racing.collection = ((name: string) => {
      const col = db().collection<IdDoc>(name);
      const raced = Object.create(col) as Collection<IdDoc>;
      raced.updateOne = (async (filter: Filter<IdDoc>, update: UpdateFilter<IdDoc>) => {
        if (filter._id === 'conn-p2') await accounts.updateCredentials('conn-p2', refreshed, T0);
        return col.updateOne(filter, update);
      }) as unknown as Collection<IdDoc>['updateOne'];
      return raced;
    }) as unknown as Db['collection'];
    const reports = await resealStoredSecrets(racing, createAesSecretBox(KEY));
    expect(reports.find((r) => r.field === 'sealedCredentials')).toMatchObject({ resealed: 3, changedMeanwhile: 1, unreadable: ['conn-p5'] });
    expect((await accounts.findById('conn-p2'))!.sealedCredentials).toBe(refreshed);
  });
});
