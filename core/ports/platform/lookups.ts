/**
 * Read-only lookups a client needs to fill a network's fields: lists (Facebook and LinkedIn pages,
 * Pinterest boards, Business Profile locations, TikTok music and locations) and single records
 * (TikTok creator settings, Instagram and Threads publishing limits). A network names the kinds it
 * answers; the core refuses the others with platform_not_supported before calling it.
 */
import type { CallContext } from './context';
import type { Page, PageRequest } from './refs';

export interface LookupEntry {
  id: string;
  name: string;
  /** The network's other fields, in the spec's snake_case names, as the response shows them. */
  extra?: Record<string, unknown>;
}

export interface LookupRequest extends PageRequest {
  /** A search text (TikTok music search, TikTok locations). */
  query?: string;
}

export interface Lookups {
  /** The list kinds this network answers (`pages`, `boards`, `locations`, `music_trending`, …). */
  readonly lists: readonly string[];
  /** The single-record kinds (`settings`, `publishing_limit`). */
  readonly records?: readonly string[];
  list(ctx: CallContext, kind: string, request?: LookupRequest): Promise<Page<LookupEntry>>;
  /** A single record, in the spec's snake_case field names. */
  read?(ctx: CallContext, kind: string): Promise<Record<string, unknown>>;
}
