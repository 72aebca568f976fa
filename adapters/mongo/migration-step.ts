import type { Db } from 'mongodb';
import type { ListCounters } from './list-counters';

/** One versioned migration step (adapters/mongo/migrate.ts runs them, docs/storage/migrations.md). */
export interface MigrationStep {
  id: string;
  description: string;
  /** Migrates one account's records; returns how many records it changed and counted. */
  account(db: Db, counters: ListCounters, accountId: string, opts: { recount: boolean }): Promise<{ changed: number; counted: number }>;
  /** Once every account is done (dropping what the step replaced, e.g. obsolete indexes). */
  finish?(db: Db): Promise<void>;
}

