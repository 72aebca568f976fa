/**
 * The Bluesky simulator's `com.atproto.repo.deleteRecord {repo, collection, rkey}`: only in the
 * authenticated account's own repo; deleting a record that is not there succeeds, as on a PDS
 * (atproto lexicon com.atproto.repo.deleteRecord). Answers `{commit}`.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import type { BlueskyState } from './state';
import { cidOf, invalidRequest, jsonBody, need } from './xrpc';

export function deleteRecord(s: Pick<BlueskyState, 'records' | 'nextTid'>, account: { did: string; handle: string }, req: SimRequest, res: ServerResponse): void {
  const input = jsonBody(req);
  const repo = need(input, 'repo');
  if (repo !== account.did && repo !== account.handle) throw invalidRequest(`Invalid repo: ${repo} is not the authenticated account`);
  const collection = need(input, 'collection');
  const rkey = need(input, 'rkey');
  const uri = `at://${account.did}/${collection}/${rkey}`;
  s.records.delete(uri);
  sendJson(res, 200, { commit: { cid: cidOf(0x71, `delete:${uri}:${Date.now()}`), rev: s.nextTid() } });
}
