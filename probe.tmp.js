const { MongoClient } = require('mongodb');
const { createListCounters } = require('./dist/adapters/mongo/list-counters');
const { createMongoUploads } = require('./dist/adapters/mongo/uploads');
const { uploadsScale } = require('./dist/test/bench/scale/uploads');
const { seededRandom } = require('./dist/test/support/seeded-random');
(async () => {
  const c = await MongoClient.connect('mongodb://127.0.0.1:27017/', { monitorCommands: true });
  const db = c.db('probe_' + Date.now());
  const counters = await createListCounters(db);
  const repo = await createMongoUploads(db, counters);
  const acct = { id: 'acctL', role: 'large', apiKey: '', profiles: ['brand', 'shop', 'news'], connections: { brand: [{ platform: 'x', connectionId: 'cx' }, { platform: 'bluesky', connectionId: 'cb' }], shop: [{ platform: 'x', connectionId: 'cx2' }], news: [{ platform: 'linkedin', connectionId: 'cl' }] } };
  const N = Number(process.argv[2] || 6000);
  let t = Date.now();
  await uploadsScale.seed({ db, counters, accounts: [acct], uploadsOf: () => N, now: new Date(), months: 13, random: seededRandom(1), say: console.log });
  console.log('seeded', N, Date.now() - t, 'ms'); require('child_process').execFileSync('bash', ['ops/ferretdb-tune.sh', db.databaseName]);
  let cmds = [];
  c.on('commandSucceeded', (e) => cmds.push([e.commandName, e.duration, (e.reply.cursor?.firstBatch ?? []).length]));
  for (let k = 0; k < 3; k++) {
    cmds = [];
    t = performance.now();
    const h = await counters.hours('u|acctL||');
    const t1 = performance.now() - t;
    const page = await repo.history({ accountId: 'acctL', page: 1, limit: 20 });
    const t2 = performance.now() - t;
    console.log({ countersMs: t1.toFixed(1), historyMs: (t2 - t1).toFixed(1), items: page.items.length, total: page.total, cmds: cmds.length, byName: cmds.reduce((m, [n, d, b]) => { m[n] = m[n] || [0, 0, 0]; m[n][0]++; m[n][1] += d; m[n][2] += b; return m; }, {}) });
  }
  const docs = await db.collection('list_counters').find({ ck: 'u|acctL||' }).toArray();
  console.log('counter docs', docs.length, 'bytes', docs.reduce((n, d) => n + d.s.length, 0));
  await db.dropDatabase(); counters.stop(); await c.close(); process.exit(0);
})();
