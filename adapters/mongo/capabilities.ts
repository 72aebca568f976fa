import type { Db, Document } from 'mongodb';

/**
 * What the MongoDB-wire server behind MONGODB_URI supports beyond the subset every repository
 * keeps to (see collections.ts). FerretDB 1.x has no TTL indexes, no transactions, no $lookup and
 * no partial indexes; a MongoDB replica set has them all. Herald uses the extras only behind
 * these flags, so one build runs on both.
 */
export interface MongoCapabilities {
  server: 'ferretdb' | 'mongodb';
  version: string;
  /** The replica set's name, when the server is a member of one. */
  replicaSet: string | undefined;
  /** Multi-document transactions: MongoDB ≥ 4.0 in a replica set (or sharded), never FerretDB 1.x. */
  transactions: boolean;
  /** The server deletes expired documents itself (expireAfterSeconds). */
  ttlIndexes: boolean;
  /** $lookup and partial indexes. */
  lookup: boolean;
  partialIndexes: boolean;
}

/** The capabilities a server's buildInfo and hello answers describe (pure: tested without a server). */
export function capabilitiesFrom(buildInfo: Document, hello: Document): MongoCapabilities {
  const ferretdb = 'ferretdbVersion' in buildInfo || 'ferretdbFeatures' in buildInfo;
  const version = String(buildInfo.version ?? '0');
  const major = Number(version.split('.')[0]) || 0;
  const replicaSet = typeof hello.setName === 'string' ? hello.setName : undefined;
  const sharded = hello.msg === 'isdbgrid';
  const stages: unknown[] = Array.isArray(buildInfo.ferretdbFeatures?.aggregationStages) ? buildInfo.ferretdbFeatures.aggregationStages : [];
  return {
    server: ferretdb ? 'ferretdb' : 'mongodb',
    version: ferretdb ? `ferretdb ${String(buildInfo.ferretdbVersion ?? 'unknown')} (wire ${version})` : version,
    replicaSet,
    transactions: !ferretdb && major >= 4 && (Boolean(replicaSet) || sharded),
    ttlIndexes: !ferretdb,
    lookup: ferretdb ? stages.includes('$lookup') : true,
    partialIndexes: !ferretdb,
  };
}

export async function detectCapabilities(db: Db): Promise<MongoCapabilities> {
  const admin = db.admin();
  const [buildInfo, hello] = await Promise.all([admin.command({ buildInfo: 1 }), admin.command({ hello: 1 })]);
  return capabilitiesFrom(buildInfo, hello);
}

/** TTL indexes Herald adds where the server supports them: the server then deletes what the periodic cleanups would. */
export const TTL_INDEXES: Array<{ collection: string; field: string; name: string }> = [
  // A lapsed refresh lease is ignored by the lease code either way; with TTL it also disappears.
  { collection: 'credential_leases', field: 'expiresAt', name: 'expiresAt_ttl' },
];

/**
 * Creates the extras the server supports (idempotent). On FerretDB it creates nothing: expiry
 * stays a field plus cleanup, as every repository already does.
 */
export async function applyCapabilities(db: Db, caps: MongoCapabilities): Promise<string[]> {
  const created: string[] = [];
  if (!caps.ttlIndexes) return created;
  for (const ttl of TTL_INDEXES) {
    await db.collection(ttl.collection).createIndex({ [ttl.field]: 1 }, { name: ttl.name, expireAfterSeconds: 0 });
    created.push(`${ttl.collection}.${ttl.name}`);
  }
  return created;
}
