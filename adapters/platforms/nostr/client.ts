/**
 * Publishing one signed event to every relay of the connection, and THE one place the relays'
 * answers get a meaning (mapNostrFailure). A post succeeds when at least one relay accepted it
 * (OK true, or a `duplicate:` refusal: the relay already holds it); the others become warnings.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { Event } from 'nostr-tools';
import type { FailureContext } from '../kit/http';
import type { RelayIO, RelayOutcome } from './relay';

/** Relays give no Retry-After: a rate-limited publish waits this long. */
export const NOSTR_RATE_LIMIT_RETRY_MS = 60_000;

/** NIP-01's machine-readable prefix of an OK or CLOSED message (`blocked: …`, `rate-limited: …`). */
export function relayPrefix(message: string): string {
  return /^([a-z-]+):/.exec(message)?.[1] ?? '';
}

export const accepted = (o: RelayOutcome): boolean => o.kind === 'ok' && (o.accepted || relayPrefix(o.message) === 'duplicate');

/** How one relay's outcome reads in a result or a warning. */
export function describeOutcome(o: RelayOutcome): string {
  if (o.kind === 'ok') return accepted(o) ? `${o.relay} accepted it` : `${o.relay} refused it (${o.message || 'no reason given'})`;
  const what = o.reason === 'timeout' ? 'did not answer in time' : o.reason === 'connect_failed' ? 'could not be reached' : 'closed the connection without answering';
  return `${o.relay} ${what}${o.detail ? ` (${o.detail})` : ''}`;
}

/**
 * The one place relay answers get a meaning in the core taxonomy, for a publish no relay accepted.
 * By NIP-01 prefix: any `rate-limited` → rate_limited; any relay that did not answer or answered
 * `error:` → transient (a retry may reach it); all `invalid:`/`pow:` → invalid_content; all
 * `blocked:`/`restricted:`/`auth-required:` → auth_expired (the relays refuse this key: connect
 * relays that take it). Messages never contain the private key.
 *
 * It takes the kit's context like every mapping but reads none of it: relays send no Retry-After
 * and no reset time, so a rate-limited publish waits the fixed NOSTR_RATE_LIMIT_RETRY_MS from
 * whenever it failed (no clock needed), and each silent relay's outcome already says it timed out.
 */
export function mapNostrFailure(outcomes: readonly RelayOutcome[], _context: FailureContext): PlatformError {
  const detail = outcomes.map(describeOutcome).join('; ');
  const prefixes = outcomes.map((o) => (o.kind === 'ok' ? relayPrefix(o.message) : 'no_response'));
  const upstream = { code: [...new Set(prefixes)].join(',') || 'no_relays' };
  if (!outcomes.length) return new PlatformError('nostr', { kind: 'auth_expired', reason: 'no_relays' }, 'The connection has no relays; reconnect with at least one relay URL.', upstream);
  if (prefixes.includes('rate-limited')) {
    return new PlatformError('nostr', { kind: 'rate_limited', retryAfterMs: NOSTR_RATE_LIMIT_RETRY_MS }, `No relay accepted the event: ${detail}.`, upstream);
  }
  if (prefixes.some((p) => p === 'no_response' || p === 'error' || p === '')) {
    return new PlatformError('nostr', { kind: 'transient' }, `No relay accepted the event: ${detail}. The outcome on relays that did not answer is unknown.`, upstream);
  }
  if (prefixes.every((p) => p === 'invalid' || p === 'pow')) {
    return new PlatformError('nostr', { kind: 'invalid_content', code: prefixes.includes('pow') ? 'pow_required' : 'invalid_event' }, `The relays refused the event: ${detail}.`, upstream);
  }
  if (prefixes.every((p) => p === 'blocked' || p === 'restricted' || p === 'auth-required')) {
    return new PlatformError('nostr', { kind: 'auth_expired', reason: 'relays_refuse_key' },
      `Every relay refused this key: ${detail}. Reconnect with relays that accept it (paid or allow-listed relays must admit the public key first).`, upstream);
  }
  return new PlatformError('nostr', { kind: 'rejected', code: 'relays_refused' }, `No relay accepted the event: ${detail}.`, upstream);
}

/** Sends the event to every relay at once; resolves with each relay's outcome, in relay order. */
export async function broadcast(io: RelayIO, relays: readonly string[], event: Event, timeoutMs: number, signal?: AbortSignal): Promise<RelayOutcome[]> {
  return Promise.all(relays.map((relay) => io.publish(relay, event, timeoutMs, signal)));
}
