/**
 * Talking NIP-01 to one relay over WebSocket (github.com/nostr-protocol/nips/blob/master/01.md):
 * `["EVENT", event]` answered by `["OK", id, accepted, message]`, and `["REQ", sub, filter]`
 * answered by `["EVENT", sub, event]`… `["EOSE", sub]`. Nothing here gives an answer a meaning:
 * the outcomes go to the adapter's failure mapping.
 */
import WebSocket from 'ws';
import type { Event, Filter } from 'nostr-tools';

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

function open(relay: string, timeoutMs: number, onMessage: (data: unknown[]) => void, onEnd: (reason: 'timeout' | 'closed' | 'connect_failed', detail?: string) => void, signal?: AbortSignal) {
  let opened = false;
  let ended = false;
  const socket = new WebSocket(relay, { handshakeTimeout: timeoutMs, maxPayload: 4 * 1024 * 1024 });
  const end = (reason: 'timeout' | 'closed' | 'connect_failed', detail?: string) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    socket.removeAllListeners('message');
    socket.on('error', () => undefined);
    socket.terminate();
    onEnd(reason, detail);
  };
  const timer = setTimeout(() => end('timeout'), timeoutMs);
  // Cancelled by the caller (the activity): the relay may or may not have the event.
  signal?.addEventListener('abort', () => end('closed', 'aborted'), { once: true });
  socket.on('open', () => { opened = true; });
  socket.on('message', (raw) => {
    let data: unknown;
    try {
      data = JSON.parse(raw.toString());
    } catch {
      return; // Not NIP-01: ignored, like other clients do.
    }
    if (Array.isArray(data)) onMessage(data);
  });
  // The error may carry the URL: only its code is kept.
  socket.on('error', (err: NodeJS.ErrnoException) => end(opened ? 'closed' : 'connect_failed', err.code));
  socket.on('close', () => end(opened ? 'closed' : 'connect_failed'));
  return {
    send: (message: unknown[]) => socket.once('open', () => socket.send(JSON.stringify(message))),
    done: () => { if (!ended) { ended = true; clearTimeout(timer); socket.close(); } },
  };
}

export const wsRelayIO: RelayIO = {
  publish(relay, event, timeoutMs, signal) {
    return new Promise((resolve) => {
      const conn = open(relay, timeoutMs, (msg) => {
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
      const conn = open(relay, timeoutMs, (msg) => {
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
