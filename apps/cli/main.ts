import { parseArgs } from 'node:util';
import { randomIds, sha256KeyHasher, systemClock } from '../../adapters/crypto/node-crypto';
import { HeraldError } from '../../core/domain/errors';
import { PLAN_NAMES } from '../../core/domain/plans';
import {
  ensureOperatorAccount, issueApiKey, listApiKeys, revokeApiKey,
} from '../../core/usecases/operator-accounts';
import { retryFailedPlatforms } from '../../core/usecases/retry-upload';
import { rebuildAnalyticsSeries } from '../../core/usecases/snapshot-analytics';
import { dropRetiredYearDocuments } from '../../adapters/mongo/analytics-history';
import { buildAnalyticsStorage } from '../shared/analytics';
import { createOperatorReads } from '../../adapters/mongo/operator-reads';
import { createTemporalUploadRunner } from '../../adapters/temporal/upload-runner';
import { loadConfig } from '../shared/config';
import { buildPlatforms, buildSecretBox, connectMongo, connectTemporal } from '../shared/compose';
import { resealStoredSecrets } from '../../adapters/mongo/reseal';
import { listCountersFor } from '../../adapters/mongo/list-counters';
import { migrate } from '../../adapters/mongo/migrate';
import { createLogger, setRootLogger } from '../shared/logging';
import { createMongoMediaUsage } from '../../adapters/mongo/media-usage';
import { buildNotifications } from '../shared/notifications';
import type { OperatorAccount } from '../../core/domain/operator';
import { failedDeliveries, mediaMinutes, migrateReport, redeliverOne, resealReport } from './service-commands';
import {
  accountsList, connectionsNeeding, profileShow, profilesList, uploadFailures, uploadShow, type OperatorDeps, type Output,
} from './operator-commands';

const USAGE = `Herald operator CLI

  herald account ensure --email <email> --plan <${PLAN_NAMES.join('|')}>
      Creates the operator account (or changes its plan).
  herald key create --email <email> [--name <label>]
      Issues an API key. The key is printed once, on the last line; only its hash is stored.
  herald key list --email <email>
  herald key revoke --email <email> --id <key id>

  herald accounts list                         Operator accounts and their plans
  herald accounts plan --email <email> --plan <plan>
                                               Changes an account's plan (prints before and after)
  herald accounts paused                       Connections paused by a network verdict or a checkpoint
  herald accounts reauth                       Connections whose owner must reconnect them
  herald profiles list --email <email>         Profiles with each connection's state
  herald profiles show --email <email> --username <profile>
  herald uploads show --email <email> --request-id <request id or job id>
                                               Per-network results, workflow id and Temporal UI link
  herald uploads failures --since <30m|24h|7d|ISO date> [--email <email>]
  herald uploads retry --email <email> --request-id <id>
                                               Sends the failed networks of a finished upload again
  herald media minutes --email <email>         Media-job minutes used this month, per job
  herald webhooks failed --email <email> [--since <30m|24h|7d|ISO date>]
                                               Failed webhook / chat deliveries (the delivery log)
  herald webhooks redeliver --email <email> --id <delivery id>
                                               Sends a delivery again now (same id, signed anew)

  herald secrets reseal [--dry-run]            Seals every stored secret sealed before secrets were
                                               bound to their record again, bound (docs/security/at-rest.md);
                                               then HERALD_SECRETS_ACCEPT_UNBOUND=false refuses old ones

  herald migrate [--recount] [--dry-run]      Brings stored data to this version's shape (list keys and
                                               counters, docs/storage/migrations.md): resumable, idempotent;
                                               ops/start.sh runs it before the daemons start. --recount
                                               rebuilds every list's counters from the records

  herald analytics rebuild [--email <email>]   Rebuilds total impressions' year series from the daily
                                               snapshots (every account without --email); run it
                                               between snapshot rounds (23:50 UTC by default)

  --json   machine-readable output (every listing and show command)

Reads MONGODB_URI (default mongodb://127.0.0.1:27017/herald); retry also TEMPORAL_ADDRESS and
HERALD_TASK_QUEUE; links use HERALD_TEMPORAL_UI_URL (default http://127.0.0.1:8233).`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' }, plan: { type: 'string' }, name: { type: 'string' }, id: { type: 'string' }, username: { type: 'string' },
      'request-id': { type: 'string' }, since: { type: 'string' }, json: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, recount: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals.join(' ');
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const need = (name: 'email' | 'plan' | 'id' | 'username' | 'request-id' | 'since'): string => {
    const value = values[name];
    if (!value) throw new HeraldError('invalid_input', `--${name} is required for "${command}".`);
    return value;
  };
  const print = (out: Output) => console.log(values.json ? JSON.stringify(out.data, null, 2) : out.text);

  const config = loadConfig();
  // Driver and SDK messages go to stderr as JSON lines; stdout is the command's answer.
  setRootLogger(createLogger({ level: config.observability.logLevel === 'info' ? 'warn' : config.observability.logLevel, pretty: false, daemon: 'cli', destination: process.stderr }));
  const mongo = await connectMongo(config);
  const deps = { storage: mongo.storage, ids: randomIds, clock: systemClock, hasher: sha256KeyHasher };
  const ops: OperatorDeps = {
    storage: mongo.storage, reads: createOperatorReads(mongo.db), now: () => systemClock.now(),
    temporal: { namespace: config.temporal.namespace, uiUrl: config.observability.temporalUiUrl },
  };
  const operator = async (): Promise<OperatorAccount> => {
    const account = await mongo.storage.operators.findByEmail(need('email').trim().toLowerCase());
    if (!account) throw new HeraldError('not_found', `No operator account with email ${values.email}.`);
    return account;
  };
  /** The notification use cases need Temporal (channel workflows) and the secret key (webhook secrets). */
  const withNotifications = async (run: (n: Awaited<ReturnType<typeof buildNotifications>>) => Promise<Output>): Promise<void> => {
    const temporal = await connectTemporal(config);
    try {
      print(await run(await buildNotifications(config, mongo.db, mongo.storage, buildSecretBox(config), temporal.client)));
    } finally {
      await temporal.connection.close();
    }
  };
  try {
    switch (command) {
      case 'migrate': {
        const counters = await listCountersFor(mongo.db);
        const reports = await migrate(mongo.db, counters, {
          recount: values.recount === true, dryRun: values['dry-run'] === true, log: (line) => process.stderr.write(`${line}\n`),
        });
        counters.stop();
        print(migrateReport(reports));
        return 0;
      }
      case 'secrets reseal':
        // Opens the old values whatever HERALD_SECRETS_ACCEPT_UNBOUND says: that is its job.
        print(resealReport(await resealStoredSecrets(mongo.db, buildSecretBox(config, { acceptUnbound: true }), { dryRun: values['dry-run'] === true }), values['dry-run'] === true));
        return 0;
      case 'media minutes':
        print(await mediaMinutes({ mediaUsage: await createMongoMediaUsage(mongo.db), clock: systemClock }, await operator()));
        return 0;
      case 'webhooks failed': {
        const account = await operator();
        await withNotifications((n) => failedDeliveries(n, account, values.since, systemClock.now()));
        return 0;
      }
      case 'webhooks redeliver': {
        const account = await operator();
        await withNotifications((n) => redeliverOne(n, account, need('id')));
        return 0;
      }
      case 'account ensure': {
        const account = await ensureOperatorAccount(deps, { email: need('email'), plan: need('plan') });
        console.log(`account ${account.id} ${account.email} plan=${account.plan}`);
        return 0;
      }
      case 'key create': {
        const { secret, key } = await issueApiKey(deps, { email: need('email'), name: values.name ?? 'default' });
        console.error(`key ${key.id} "${key.name}" created; store it now, it is not shown again:`);
        console.log(secret);
        return 0;
      }
      case 'key list': {
        for (const key of await listApiKeys(deps, { email: need('email') })) {
          console.log([key.id, key.prefix + '…', key.name, key.createdAt.toISOString(), key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active'].join('\t'));
        }
        return 0;
      }
      case 'key revoke':
        await revokeApiKey(deps, { email: need('email'), keyId: need('id') });
        console.log(`key ${values.id} revoked`);
        return 0;
      case 'accounts list':
        print(await accountsList(ops));
        return 0;
      case 'accounts plan': {
        const before = await mongo.storage.operators.findByEmail(need('email').trim().toLowerCase());
        if (!before) throw new HeraldError('not_found', `No operator account with email ${values.email}; create it with "account ensure".`);
        const after = await ensureOperatorAccount(deps, { email: before.email, plan: need('plan') });
        print({ data: { email: after.email, id: after.id, from: before.plan, to: after.plan }, text: `account ${after.email}: plan ${before.plan} → ${after.plan}` });
        return 0;
      }
      case 'accounts paused':
        print(await connectionsNeeding(ops, 'paused'));
        return 0;
      case 'accounts reauth':
        print(await connectionsNeeding(ops, 'reauth'));
        return 0;
      case 'profiles list':
        print(await profilesList(ops, need('email')));
        return 0;
      case 'profiles show':
        print(await profileShow(ops, need('email'), need('username')));
        return 0;
      case 'uploads show':
        print(await uploadShow(ops, need('email'), need('request-id')));
        return 0;
      case 'uploads failures':
        print(await uploadFailures(ops, need('since'), values.email));
        return 0;
      case 'uploads retry': {
        const account = await mongo.storage.operators.findByEmail(need('email').trim().toLowerCase());
        if (!account) throw new HeraldError('not_found', `No operator account with email ${values.email}.`);
        const temporal = await connectTemporal(config);
        try {
          const runner = createTemporalUploadRunner(temporal.client, { taskQueue: config.temporal.taskQueue, timing: config.uploadTiming });
          const { upload, retried } = await retryFailedPlatforms({ ...deps, runner, platforms: buildPlatforms(config) }, account, { requestId: need('request-id') });
          const shown = await uploadShow(ops, account.email, upload.requestId);
          print({ data: { retried, upload: shown.data }, text: `retrying ${retried.join(', ')}\n${shown.text}` });
        } finally {
          await temporal.connection.close();
        }
        return 0;
      }
      case 'analytics rebuild': {
        const accountIds = values.email ? [(await operator()).id] : (await ops.reads.listOperators()).map((a) => a.id);
        const { snapshots } = await buildAnalyticsStorage(config, mongo.db);
        const done = await rebuildAnalyticsSeries({
          storage: mongo.storage, snapshots, platforms: buildPlatforms(config), clock: systemClock, retentionMs: config.analyticsHistory.snapshotRetentionMs,
        }, accountIds);
        // The previous design's year documents: the series replace them.
        const dropped = await dropRetiredYearDocuments(mongo.db);
        print({ data: { ...done, dropped_year_documents: dropped }, text: `rebuilt ${done.years} profile-years of ${done.profiles} profiles from ${done.snapshots} snapshots${dropped ? '; analytics_years dropped' : ''}` });
        return 0;
      }
      default:
        console.error(`unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } finally {
    await mongo.client.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
  console.error(`herald: ${(err as Error).message}`);
  process.exit(1);
});
