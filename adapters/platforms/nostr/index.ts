/**
 * Nostr (github.com/nostr-protocol/nips): the account is a private key and a list of relays. Notes
 * (kind 1) and long-form articles (kind 30023) are signed with nostr-tools and sent to every relay
 * over WebSocket (ws); a post succeeds when at least one relay accepted it, and its result lists
 * every relay's answer. Deletion is a NIP-09 request.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { flag, httpUrl, millis } from '../kit/env';
import { systemNow } from '../kit/http';
import { instanceRules, type InstanceOptions } from '../kit/instance';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createNostrConnector } from './connect';
import { nostrDescriptor } from './descriptor';
import { createNostrPostEditor } from './posts';
import { createNostrPublisher } from './publish';
import { createWsRelayIO, type RelayIO } from './relay';

export { mapNostrFailure, NOSTR_RATE_LIMIT_RETRY_MS } from './client';
export { nostrDescriptor, NOTE_MAX_CHARS } from './descriptor';
export { eventOf } from './publish';
export type { RelayIO, RelayOutcome } from './relay';
export { nostrCredentialFields, nostrSettings, relayUrl, secretKeyOf } from './settings';

export const NOSTR_WEB_URL = 'https://njump.me';
const DEFAULT_RELAY_TIMEOUT_MS = 10_000;

export interface NostrPlatformOptions extends CommonOptions, InstanceOptions {
  /** Where post links point: `${webUrl}/<nevent or naddr>`. Default https://njump.me. */
  webUrl?: string;
  /** Accept ws:// relay URLs (local relays, the sandbox). Default false: wss only. */
  allowInsecureRelays?: boolean;
  /** How long each relay has to answer an event or a query. Default 10 s. */
  relayTimeoutMs?: number;
  /** The WebSocket transport (tests). */
  relayIO?: RelayIO;
}

export function createNostrPlatform(opts: NostrPlatformOptions = {}): PlatformAdapter {
  const io = opts.relayIO ?? createWsRelayIO(instanceRules(opts.allowInsecureRelays === true, opts.resolve));
  const relayTimeoutMs = opts.relayTimeoutMs ?? Math.min(opts.timeoutMs ?? DEFAULT_RELAY_TIMEOUT_MS, DEFAULT_RELAY_TIMEOUT_MS);
  const publishOpts = { relayTimeoutMs, webUrl: opts.webUrl ?? NOSTR_WEB_URL, now: opts.now ?? systemNow };
  return {
    descriptor: nostrDescriptor,
    credentials: createNostrConnector(io, { allowInsecureRelays: opts.allowInsecureRelays === true, relayTimeoutMs }),
    publisher: createNostrPublisher(io, publishOpts),
    postEditor: createNostrPostEditor(io, publishOpts),
  };
}

export const nostr = defineNetwork<'nostr', NostrPlatformOptions>({
  id: 'nostr',
  descriptor: nostrDescriptor,
  env: {
    webUrl: ['NOSTR_WEB_URL', httpUrl, { meaning: 'Where Nostr post links point: `<url>/<nevent or naddr>`.', default: '`https://njump.me`' }],
    allowInsecureRelays: ['NOSTR_ALLOW_INSECURE_RELAYS', flag, { meaning: 'Accept `ws://` relay URLs and private addresses (local relays, the sandbox).', default: '`false`' }],
    relayTimeoutMs: ['NOSTR_RELAY_TIMEOUT_MS', millis, { meaning: 'How long each relay has to answer an event (OK) or a query (EOSE).', default: '10000 (10 s), or the platform timeout when shorter' }],
  },
  create: createNostrPlatform,
});
