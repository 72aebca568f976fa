/**
 * The locations a connection manages: Account Management `accounts.list`, then Business
 * Information `accounts.locations.list` for each account (readMask required), pages followed.
 * Posts need `accounts/{a}/locations/{l}`; a location id alone is resolved through this list.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import type { GoogleBusinessClient } from './client';

export interface GbpLocationInfo {
  accountId: string;
  accountName: string;
  locationId: string;
  title: string;
  address?: string;
  mapsUri?: string;
}

const MAX_PAGES = 20;

async function pages(client: GoogleBusinessClient, token: string, url: (pageToken?: string) => string, key: string, signal?: AbortSignal): Promise<Json[]> {
  const items: Json[] = [];
  let pageToken: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await client.call(token, 'GET', url(pageToken), undefined, signal);
    const list = page[key];
    if (list !== undefined && !Array.isArray(list)) throw client.failure({ kind: 'malformed', status: 200, what: `a ${key} list` });
    items.push(...(Array.isArray(list) ? list.filter(isObject) : []));
    pageToken = str(page.nextPageToken);
    if (!pageToken) break;
  }
  return items;
}

const lastSegment = (name: unknown) => (typeof name === 'string' ? name.split('/').at(-1) ?? '' : '');

export async function listLocations(client: GoogleBusinessClient, ctx: CallContext): Promise<GbpLocationInfo[]> {
  const token = client.tokenOf(ctx);
  const accounts = await pages(client, token, (t) => client.accounts(`accounts?pageSize=20${t ? `&pageToken=${encodeURIComponent(t)}` : ''}`), 'accounts', ctx.signal);
  const out: GbpLocationInfo[] = [];
  for (const account of accounts) {
    const accountId = lastSegment(account.name);
    if (!accountId) continue;
    const locations = await pages(client, token, (t) => client.info(
      `accounts/${encodeURIComponent(accountId)}/locations?readMask=name,title,storefrontAddress,metadata&pageSize=100${t ? `&pageToken=${encodeURIComponent(t)}` : ''}`,
    ), 'locations', ctx.signal);
    for (const l of locations) {
      const locationId = lastSegment(l.name);
      if (!locationId) continue;
      const address = isObject(l.storefrontAddress) && Array.isArray(l.storefrontAddress.addressLines)
        ? l.storefrontAddress.addressLines.filter((s): s is string => typeof s === 'string').join(', ') : undefined;
      const metadata = isObject(l.metadata) ? l.metadata : {};
      out.push({
        accountId, accountName: str(account.accountName) ?? accountId, locationId, title: str(l.title) ?? locationId,
        ...(address ? { address } : {}), ...(str(metadata.mapsUri) ? { mapsUri: str(metadata.mapsUri) } : {}),
      });
    }
  }
  return out;
}

/** `accounts/{a}/locations/{l}` of a request's `gbp_location_id` (or the only location when none is given). */
export async function resolveLocation(client: GoogleBusinessClient, ctx: CallContext, requested: string | undefined, cache: Map<string, string>): Promise<{ accountId: string; locationId: string }> {
  const full = requested ? /^accounts\/([^/]+)\/locations\/([^/]+)$/.exec(requested.trim()) : null;
  if (full) return { accountId: full[1]!, locationId: full[2]! };
  const wanted = requested?.trim().replace(/^locations\//, '');
  const cached = wanted ? cache.get(wanted) : undefined;
  if (wanted && cached) return { accountId: cached, locationId: wanted };
  const all = await listLocations(client, ctx);
  for (const l of all) cache.set(l.locationId, l.accountId);
  const available = all.map((l) => ({ location_id: l.locationId, location_name: l.title, account_id: l.accountId }));
  if (wanted) {
    const found = all.find((l) => l.locationId === wanted);
    if (!found) {
      throw new PlatformError('google_business', { kind: 'rejected', code: 'gbp_location_not_found' },
        `The connected Google account does not manage location ${wanted}; choose one of GET /google-business/locations.`, {}, { available_locations: available });
    }
    return { accountId: found.accountId, locationId: found.locationId };
  }
  if (all.length === 1) return { accountId: all[0]!.accountId, locationId: all[0]!.locationId };
  throw new PlatformError('google_business', { kind: 'rejected', code: 'gbp_location_required' },
    all.length ? `The Google account manages ${all.length} locations: send gbp_location_id (or pin one to the profile).` : 'The connected Google account manages no Business Profile location.',
    {}, { available_locations: available });
}
