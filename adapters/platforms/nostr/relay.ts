/**
 * Talking NIP-01 to one relay over WebSocket (github.com/nostr-protocol/nips/blob/master/01.md):
 * `["EVENT", event]` answered by `["OK", id, accepted, message]`, and `["REQ", sub, filter]`
 * answered by `["EVENT", sub, event]`… `["EOSE", sub]`. Nothing here gives an answer a meaning:
 * the outcomes go to the adapter's failure mapping.
 */
import WebSocket from 'ws';
import type { Event, Filter } from 'nostr-tools';
import { pinnedLookup, resolveDestination, type DestinationRules } from '../../net/destination';

/** What one relay made of one event. */
export type RelayOutcome =
  | { relay: string; kind: 'ok'; accepted: boolean; message: string }
  /** No OK came back: the connection failed, closed, or the relay stayed silent until the timeout. */
  | { relay: string; kind: 'no_response'; reason: 'timeout' | 'closed' | 'connect_failed'; detail?: string };

export interface RelayIO {
  publish(relay: string, event: Event, timeoutMs: number, signal?: AbortSignal): Promise<RelayOutcome>;
  /** The events a relay holds for the filter, until EOSE; undefined when the relay did not answer. */
  query(relay: string, filter: Filter, timeoutMs: number): Promise<Event[] | undefined>;
}

type EndReason = 'timeout' | 'closed' | 'connect_failed';

/**
 * One connection to a relay: its host resolved once, every address checked (rules), and the socket
 * connected to the checked address (the TLS server name stays the relay's name). ws follows no
 * redirects unless asked. Messages sent before the socket opens wait for it.
 */
function open(relay: string, rules: DestinationRules, timeoutMs: number, onMessage: (data: unknown[]) => void, onEnd: (reason: EndReason, detail?: string) => void, signal?: AbortSignal) {
  let opened = false;
  let ended = false;
  let socket: WebSocket | undefined;
  const queued: unknown[][] = [];
  const end = (reason: EndReason, detail?: string) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    if (socket) {
      socket.removeAllListeners('message');
      socket.on('error', () => undefined);
      socket.terminate();
    }
    onEnd(reason, detail);
  };
  const timer = setTimeout(() => end('timeout'), timeoutMs);
  // Cancelled by the caller (the activity): the relay may or may not have the event.
  signal?.addEventListener('abort', () => end('closed', 'aborted'), { once: true });
  const connect = (ws: WebSocket) => {
    socket = ws;
    ws.on('open', () => {
      opened = true;
      for (const message of queued.splice(0)) ws.send(JSON.stringify(message));
    });
    ws.on('message', (raw) => {
      let data: unknown;
      try {
        data = JSON.parse(raw.toString());
      } catch {
        return; // Not NIP-01: ignored, like other clients do.
      }
      if (Array.isArray(data)) onMessage(data);
    });
    // The error may carry the URL: only its code is kept.
    ws.on('error', (err: NodeJS.ErrnoException) => end(opened ? 'closed' : 'connect_failed', err.code));
    ws.on('close', () => end(opened ? 'closed' : 'connect_failed'));
  };
  resolveDestination(new URL(relay), rules).then((destination) => {
    if (ended) return;
    const options: WebSocket.ClientOptions & { lookup: ReturnType<typeof pinnedLookup> } = {
      handshakeTimeout: timeoutMs, maxPayload: 4 * 1024 * 1024, lookup: pinnedLookup(destination.address),
    };
    connect(new WebSocket(relay, options));
  }, (err: { code?: string }) => end('connect_failed', err.code));
  return {
    send: (message: unknown[]) => {
      if (opened && socket) socket.send(JSON.stringify(message));
      else queued.push(message);
    },
    done: () => { if (!ended) { ended = true; clearTimeout(timer); socket?.close(); } },
  };
}

/** Relays over WebSocket, every connection checked and pinned by `rules`. */
export function createWsRelayIO(rules: DestinationRules): RelayIO {
  return {
    publish(relay, event, timeoutMs, signal) {
      return new Promise((resolve) => {
        const conn = open(relay, rules, timeoutMs, (msg) => {
          if (msg[0] === 'OK' && msg[1] === event.id) {
            conn.done();
            resolve({ relay, kind: 'ok', accepted: msg[2] === true, message: typeof msg[3] === 'string' ? msg[3] : '' });
          }
        }, (reason, detail) => resolve({ relay, kind: 'no_response', reason, ...(detail ? { detail } : {}) }), signal);
        conn.send(['EVENT', event]);
      });
    },
    query(relay, filter, timeoutMs) {
      return new Promise((resolve) => {
        const sub = `herald-${Math.random().toString(36).slice(2, 10)}`;
        const events: Event[] = [];
        const conn = open(relay, rules, timeoutMs, (msg) => {
          if (msg[0] === 'EVENT' && msg[1] === sub && typeof msg[2] === 'object' && msg[2] !== null) events.push(msg[2] as Event);
          if ((msg[0] === 'EOSE' || msg[0] === 'CLOSED') && msg[1] === sub) {
            conn.done();
            resolve(msg[0] === 'EOSE' ? events : undefined);
          }
        }, () => resolve(undefined));
        conn.send(['REQ', sub, filter]);
      });
    },
  };
}
