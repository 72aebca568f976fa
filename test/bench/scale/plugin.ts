import type { Db } from 'mongodb';
import type { ListCounters } from '../../../adapters/mongo/list-counters';
import type { BulkWriter } from './pg-copy';

/**
 * One family of lists in the scale bench (`npm run bench -- scale`, test/bench/scale.bench.ts).
 * A plugin seeds its records with bulk writes of exactly the documents its repository writes
 * (the adapter's exported document builders and counter deltas), then names the HTTP requests
 * the bench measures on the small and on the large account.
 */
export interface SeededAccount {
  id: string;
  role: 'small' | 'large' | 'other';
  /** Bearer API key of the account (for `requests`). */
  apiKey: string;
  profiles: string[];
  /** Connected accounts per profile. */
  connections: Record<string, Array<{ platform: string; connectionId: string }>>;
}

export interface SeedContext {
  db: Db;
  /** Bulk insert of exactly these documents (pg-copy.ts: COPY into FerretDB's table, or insertMany). */
  write: BulkWriter;
  counters: ListCounters;
  /** The accounts to seed in this step. */
  accounts: SeededAccount[];
  /**
   * How many records of the plugin's main kind each account gets, proportionate to its uploads
   * (the bench holds 1,000,000 uploads: 300,000 on the large account, the rest over 50 others).
   */
  uploadsOf(account: SeededAccount): number;
  now: Date;
  /** Records spread over this many months before `now`. */
  months: number;
  /** Deterministic random numbers in [0, 1). */
  random(): number;
  /** Progress line. */
  say(line: string): void;
}

export interface MeasuredRequest {
  name: string;
  method?: 'GET' | 'POST';
  /** Path and query below the API root, e.g. `/api/herald/history?limit=20`. */
  path: string;
  body?: unknown;
  /** Expected status (default 200). */
  status?: number;
}

export interface ScaleList {
  name: string;
  seed(ctx: SeedContext): Promise<{ written: number }>;
  /**
   * The requests measured for one account: page 1, a middle page and the last page in the page
   * form, and the cursor form's next page, of each list and filter worth measuring. `get` calls
   * the API as that account (to read totals and cursors first).
   */
  requests(account: SeededAccount, get: (path: string) => Promise<Record<string, unknown>>): Promise<MeasuredRequest[]>;
}
