import { parseArgs } from 'node:util';
import { randomIds, sha256KeyHasher, systemClock } from '../../adapters/crypto/node-crypto';
import { HeraldError } from '../../core/domain/errors';
import { PLAN_NAMES } from '../../core/domain/plans';
import {
  ensureOperatorAccount, issueApiKey, listApiKeys, revokeApiKey,
} from '../../core/usecases/operator-accounts';
import { loadConfig } from '../shared/config';
import { connectMongo } from '../shared/compose';

const USAGE = `Herald operator CLI

  herald account ensure --email <email> --plan <${PLAN_NAMES.join('|')}>
      Creates the operator account (or changes its plan).
  herald key create --email <email> [--name <label>]
      Issues an API key. The key is printed once, on the last line; only its hash is stored.
  herald key list --email <email>
  herald key revoke --email <email> --id <key id>

Reads MONGODB_URI (default mongodb://127.0.0.1:27017/herald).`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, plan: { type: 'string' }, name: { type: 'string' }, id: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const command = positionals.join(' ');
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const need = (name: 'email' | 'plan' | 'id'): string => {
    const value = values[name];
    if (!value) throw new HeraldError('invalid_input', `--${name} is required for "${command}".`);
    return value;
  };

  const mongo = await connectMongo(loadConfig());
  const deps = { storage: mongo.storage, ids: randomIds, clock: systemClock, hasher: sha256KeyHasher };
  try {
    switch (command) {
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
