import { MongoClient, type CommandStartedEvent, type CommandSucceededEvent, type Db, type Document } from 'mongodb';
import { MONGODB_URI, testDatabaseName } from './mongo-db';

/** One command a repository sent, and how many documents its reply carried (find, getMore, findAndModify). */
export interface SeenCommand {
  name: string;
  collection: string;
  filter?: Document;
  sort?: Document;
  skip?: number;
  documents: number;
}

/**
 * A database of its own on a client with the driver's command monitoring: what a repository call
 * reads is the commands it sends and the documents their replies carry. FerretDB reads (and
 * decodes) what the equality part of a filter selects; a filter with only equalities and no sort
 * or skip reads what it returns.
 */
export async function monitoredDatabase(): Promise<{ db: Db; seen: SeenCommand[]; reset(): void; close(): Promise<void> }> {
  const client = new MongoClient(MONGODB_URI, { serverSelectionTimeoutMS: 5000, monitorCommands: true });
  await client.connect();
  const db = client.db(testDatabaseName());
  const seen: SeenCommand[] = [];
  const started = new Map<number, SeenCommand>();
  client.on('commandStarted', (e: CommandStartedEvent) => {
    const c = e.command;
    const name = e.commandName;
    const collection = String(name === 'getMore' ? c.collection : c[name] ?? '');
    const entry: SeenCommand = { name, collection, documents: 0, ...(c.filter ? { filter: c.filter } : c.query ? { filter: c.query } : {}), ...(c.sort ? { sort: c.sort } : {}), ...(c.skip ? { skip: c.skip } : {}) };
    started.set(e.requestId, entry);
  });
  client.on('commandSucceeded', (e: CommandSucceededEvent) => {
    const entry = started.get(e.requestId);
    started.delete(e.requestId);
    if (!entry) return;
    const reply = e.reply as Document;
    const batch = (reply.cursor?.firstBatch ?? reply.cursor?.nextBatch) as unknown[] | undefined;
    entry.documents = batch ? batch.length : reply.value ? 1 : 0;
    seen.push(entry);
  });
  return {
    db,
    seen,
    reset: () => { seen.length = 0; },
    close: async () => {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}

/** True when every value of the filter is a plain value (no `$` operator anywhere in it). */
export function equalityOnly(filter: Document | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([k, v]) => !k.startsWith('$') && !(v !== null && typeof v === 'object' && !(v instanceof Date) && !Array.isArray(v) && Object.keys(v).some((x) => x.startsWith('$'))));
}
