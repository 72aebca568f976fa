import { spawn, execFileSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { Binary, ObjectId, type Db, type Document } from 'mongodb';

/**
 * The scale bench's bulk writer. FerretDB 1.24 on PostgreSQL stores a collection as one table with
 * a `_jsonb` column holding each document in its own JSON form ("sjson": the values, plus a `$s`
 * schema giving each field's BSON type and the key order). It inserts ~3.6 ms a document here,
 * which made 1,000,000 uploads with their targets and delivery attempts a 2-hour seed.
 *
 * `copyWriter` writes the same documents with PostgreSQL's COPY instead, encoded the way FerretDB
 * encodes what the MongoDB driver sends (checked on this FerretDB: a JS integer in int32 range is
 * `int`, any other number `double`, `undefined` is `null`, a Date its milliseconds as `date`, a
 * Binary its base64 with the subtype). The
 * first batch of every collection is read back through the driver and compared with what was
 * written, so an encoding FerretDB would read differently stops the bench instead of skewing it.
 *
 * SCALE_SEED_WRITE: `copy` (default when the database is FerretDB on PostgreSQL) or `driver`
 * (insertMany through the wire protocol, as on MongoDB).
 */
export type BulkWriter = (collection: string, docs: Document[]) => Promise<void>;

type Schema = Record<string, unknown>;

function typeOf(value: unknown): { t: string; s?: number; $s?: Schema; i?: Schema[] } {
  if (value === null || value === undefined) return { t: 'null' };
  if (typeof value === 'string') return { t: 'string' };
  if (typeof value === 'boolean') return { t: 'bool' };
  if (typeof value === 'number') return { t: Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31 ? 'int' : 'double' };
  if (value instanceof Date) return { t: 'date' };
  if (value instanceof ObjectId) return { t: 'objectId' };
  if (value instanceof Binary) return { t: 'binData', s: value.sub_type };
  if (Array.isArray(value)) {
    if (value.some(Array.isArray)) throw new Error('FerretDB 1.x stores no nested arrays');
    return { t: 'array', i: value.map(typeOf) };
  }
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) as unknown : undefined;
  if (proto === Object.prototype || proto === null) return { t: 'object', $s: schemaOf(value as Document) };
  throw new Error(`the bulk writer has no encoding for ${(value as object).constructor?.name ?? typeof value}`);
}

function schemaOf(doc: Document): Schema {
  const keys = Object.keys(doc);
  if (!keys.length) return {};
  return { p: Object.fromEntries(keys.map((k) => [k, typeOf(doc[k])])), $k: keys };
}

function valueOf(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  if (value instanceof ObjectId) return value.toHexString();
  if (value instanceof Binary) return Buffer.from(value.buffer).toString('base64');
  if (Array.isArray(value)) return value.map(valueOf);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as Document).map(([k, v]) => [k, valueOf(v)]));
  return value;
}

/** A document as FerretDB's PostgreSQL backend stores it (one without an `_id` gets an ObjectId first, as the driver gives it). */
export function toSjson(doc: Document): Record<string, unknown> {
  const withId = doc._id === undefined ? { _id: new ObjectId(), ...doc } : doc;
  return { ...(valueOf(withId) as Document), $s: schemaOf(withId) };
}

/** psql's arguments for FerretDB's PostgreSQL database (the bench's index and statistics steps use them too). */
export const psqlArgs = (): string[] => ['-h', process.env.PGHOST ?? '127.0.0.1', '-U', process.env.PGUSER ?? 'postgres', '-d', process.env.HERALD_FERRETDB_PG_DATABASE ?? 'ferretdb', '-qAt'];

/** The PostgreSQL table of a FerretDB collection, or null when the database is not FerretDB on PostgreSQL here. */
function tableOf(dbName: string, collection: string): string | null {
  try {
    const out = execFileSync('psql', [...psqlArgs(), '-c',
      `SELECT _jsonb->>'table' FROM "${dbName}"._ferretdb_database_metadata WHERE _jsonb->>'_id' = '${collection.replace(/'/g, "''")}'`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return out.trim() || null;
  } catch {
    return null;
  }
}

function copyRows(dbName: string, table: string, docs: Document[]): Promise<void> {
  // COPY's text format: one row a line; a backslash is its escape character (JSON has no raw tabs or newlines).
  const rows = docs.map((d) => `${JSON.stringify(toSjson(d)).replace(/\\/g, '\\\\')}\n`).join('');
  return new Promise((resolve, reject) => {
    const child = spawn('psql', [...psqlArgs(), '-v', 'ON_ERROR_STOP=1', '-c', `COPY "${dbName}"."${table}" (_jsonb) FROM STDIN`], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`COPY into ${table} failed (${code}): ${err.slice(0, 500)}`))));
    child.stdin.end(rows);
  });
}

export function bulkWriter(db: Db, say: (line: string) => void): BulkWriter {
  const mode = process.env.SCALE_SEED_WRITE ?? 'copy';
  if (mode !== 'copy' && mode !== 'driver') throw new Error(`SCALE_SEED_WRITE must be copy or driver, not "${mode}"`);
  const tables = new Map<string, string | null>();
  const driver: BulkWriter = async (collection, docs) => {
    if (docs.length) await db.collection(collection).insertMany(docs as never[], { ordered: false });
  };
  if (mode === 'driver') return driver;
  return async (collection, given) => {
    if (!given.length) return;
    const docs = given.map((d) => (d._id === undefined ? { _id: new ObjectId(), ...d } : d));
    if (!tables.has(collection)) {
      await db.createCollection(collection).catch(() => undefined); // exists already: fine
      const table = tableOf(db.databaseName, collection);
      tables.set(collection, table);
      if (!table) {
        say(`(${collection}: not FerretDB on PostgreSQL here, written through the driver)`);
      } else {
        // The first batch: written, then read back through the driver and compared.
        await copyRows(db.databaseName, table, docs);
        const back = await db.collection(collection).find({ _id: { $in: docs.slice(0, 50).map((d) => d._id) } } as never).toArray();
        const byId = new Map(back.map((d) => [JSON.stringify(d._id), d]));
        for (const d of docs.slice(0, 50)) {
          const read = byId.get(JSON.stringify(d._id));
          const want = JSON.parse(JSON.stringify(d, (_k, v: unknown) => (v === undefined ? null : v))) as unknown;
          if (!read || !isDeepStrictEqual(JSON.parse(JSON.stringify(read)), want)) {
            throw new Error(`${collection}: a document written with COPY reads back differently through FerretDB:\nwritten ${JSON.stringify(want)}\nread    ${JSON.stringify(read)}`);
          }
        }
        return;
      }
    }
    const table = tables.get(collection);
    return table ? copyRows(db.databaseName, table, docs) : driver(collection, docs);
  };
}
