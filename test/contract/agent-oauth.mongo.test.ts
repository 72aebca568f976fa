import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMongoAgentOAuthStore } from '../../adapters/mongo/agent-oauth';
import { agentOAuthContract } from './storage/agent-oauth.contract';

/** The agent authorization server's store on the MongoDB-wire server at MONGODB_URI (FerretDB), each test in a database of its own. */
const uri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald';
let client: MongoClient | undefined;

afterAll(async () => {
  await client?.close();
});

agentOAuthContract('mongo', async () => {
  client ??= await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(`herald_test_${randomBytes(6).toString('hex')}`);
  return { repository: await createMongoAgentOAuthStore(db), cleanup: async () => { await db.dropDatabase(); } };
});
