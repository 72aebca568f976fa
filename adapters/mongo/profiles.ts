import type { Db, Document } from 'mongodb';
import type { Profile } from '../../core/domain/profile';
import { ProfileLimitError, type ProfileRepository } from '../../core/ports/storage';
import { clean, COLLECTIONS, ensureIndexes, mapDuplicate, strip } from './collections';
import { listCountersFor, type CounterDelta, type ListCounters } from './list-counters';

/**
 * ui_labels keys contain dots (`connect.title`), which MongoDB-wire servers do not all accept as
 * field names: the labels are stored as a list of {key, text} (FerretDB has no nested arrays either).
 */
const labelPairs = (labels: Record<string, string> | undefined): Array<{ key: string; text: string }> =>
  Object.entries(labels ?? {}).map(([key, text]) => ({ key, text }));

/**
 * The profile count of an account (docs/storage/lists.md): list id `p|<account>`, lane `all`, by
 * createdAt. Only counted: the profiles themselves are read with one equality query on the
 * account, a list bounded by the plan limit (core/ports/storage/profiles.ts), so they carry no
 * bucket keys.
 */
export const profileList = (accountId: string): string => `p|${encodeURIComponent(accountId)}`;

/** The counter deltas of a profile made (+1) or deleted (-1); a stored document will do. */
export const profileCounterDeltas = (profile: Pick<Profile, 'accountId' | 'createdAt'> | Document, by = 1): CounterDelta[] =>
  [{ list: profileList(String(profile.accountId)), lane: 'all', at: profile.createdAt as Date, by }];

/** Migration: profiles gain no keys (only counters, `profileCounterDeltas`). */
export const backfillProfile = (doc: Document): { $set: Document } | null => { void doc; return null; };

/** The stored document of a new profile (the repository's insert, the scale bench's seeding). */
export function toProfileDoc(profile: Profile): Document {
  const { uiLabels, ...rest } = profile;
  return clean({ ...rest, uiLabelPairs: labelPairs(uiLabels) });
}

/**
 * Profiles, unique per (account, username); the driver's ObjectId is their `_id`. The count (and
 * the plan-limit check of an insert) reads the account's counter documents, not the profiles.
 */
export async function createMongoProfiles(db: Db, counters?: ListCounters): Promise<ProfileRepository> {
  counters ??= await listCountersFor(db);
  const col = db.collection<Document>(COLLECTIONS.profiles);
  await ensureIndexes(col, [{ key: { accountId: 1, username: 1 }, name: 'accountId_username_unique', unique: true }]);
  const fromDoc = (doc: Document | null): Profile | null => {
    if (!doc) return null;
    const { uiLabelPairs, ...rest } = strip(doc) as Record<string, unknown> & { uiLabelPairs?: Array<{ key: string; text: string }> };
    return { ...rest, uiLabels: uiLabelPairs ? Object.fromEntries(uiLabelPairs.map((p) => [p.key, p.text])) : (rest.uiLabels ?? {}) } as unknown as Profile;
  };
  const count = async (accountId: string) => {
    const counts = await counters.hours(profileList(accountId));
    return Math.max(0, [...(counts.get('all')?.values() ?? [])].reduce((n, c) => n + c, 0));
  };
  return {
    async insert(profile, opts = {}) {
      // Counted before it is stored and checked after: two racing inserts at the limit both see
      // each other and are both refused, never both stored. Uncounted when refused or failed.
      await counters.add(profileCounterDeltas(profile));
      try {
        if (opts.limit !== undefined && (await count(profile.accountId)) > opts.limit) throw new ProfileLimitError(opts.limit);
        await mapDuplicate(`profile ${profile.username}`, () => col.insertOne(toProfileDoc(profile)));
      } catch (err) {
        await counters.add(profileCounterDeltas(profile, -1));
        throw err;
      }
    },
    async find(accountId, username) {
      return fromDoc(await col.findOne({ accountId, username }));
    },
    async list(accountId) {
      // Every profile of the account: at most the largest plan's limit (the insert's check is
      // strict), one equality query; sorted here (FerretDB would sort the same documents).
      const docs = await col.find({ accountId }).toArray();
      return docs.map((d) => fromDoc(d) as Profile)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));
    },
    count,
    async delete(accountId, username) {
      // Uncounted after it is gone (FerretDB's findAndModify takes no projection: a small document).
      const gone = await col.findOneAndDelete({ accountId, username });
      if (!gone) return false;
      await counters.add(profileCounterDeltas({ accountId, createdAt: gone.createdAt as Date }, -1));
      return true;
    },
    async setPin(accountId, username, field, value) {
      await col.updateOne({ accountId, username }, value === null ? { $unset: { [`pins.${field}`]: '' } } : { $set: { [`pins.${field}`]: value } });
    },
    async setUiLabels(accountId, username, labels) {
      await col.updateOne({ accountId, username }, { $set: { uiLabelPairs: labelPairs(labels) }, $unset: { uiLabels: '' } });
    },
  };
}
