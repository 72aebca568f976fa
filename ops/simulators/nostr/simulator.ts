/**
 * Loopback Nostr relays speaking NIP-01 over WebSocket: one server, one relay per path
 * (`ws://127.0.0.1:PORT/<name>`). Each relay checks event ids and signatures with nostr-tools
 * (`invalid:` otherwise), keeps events (replaceable kinds 0/3/1xxxx and addressable 3xxxx replace
 * older ones; NIP-09 kind 5 deletes the author's referenced events), answers REQ with stored events
 * and EOSE, CLOSE, and NIP-11 information over HTTP. Each relay can be told to refuse
 * (`blocked:`), restrict the key (`restricted:`), rate-limit (`rate-limited:`), error (`error:`),
 * drop the connection, or stay silent. `/__sim/state|failures|reset` control it over HTTP.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyEvent, type Event } from 'nostr-tools';
import { WebSocketServer, type WebSocket } from 'ws';

export const NOSTR_FAILURE_MODES = ['blocked', 'restricted', 'rate_limited', 'error', 'drop', 'silent'] as const;
export type NostrFailureMode = (typeof NOSTR_FAILURE_MODES)[number];
const MAX_EVENT_BYTES = 128 * 1024;

export interface NostrRelayMessage { relay: string; type: string; at: Date }

export interface NostrSimulatorOptions { port?: number }

export interface NostrSimulator {
  port: number;
  origin: string;
  /** Creates (or returns) a relay; its URL is `ws://127.0.0.1:PORT/<name>`. */
  relay(name: string): string;
  relays(): string[];
  /** Events a relay holds (all relays when omitted), newest last. */
  events(relay?: string): Event[];
  /** Queues a failure for the next `times` EVENT messages of one relay, or of every relay. */
  fail(mode: NostrFailureMode, times?: number, relay?: string): void;
  /** Allows only these public keys to publish to a relay (`restricted:` otherwise); undefined allows all. */
  allowOnly(relay: string, pubkeys: string[] | undefined): void;
  /** Every NIP-01 message received (EVENT, REQ, CLOSE), oldest first. */
  readonly requests: NostrRelayMessage[];
  state(): Record<string, unknown>;
  /** Clears events, queued failures and recorded messages; relays and allow lists stay. */
  reset(): void;
  close(): Promise<void>;
}

interface Relay { name: string; url: string; events: Event[]; failures: NostrFailureMode[]; allowed?: Set<string> }
type Filter = { ids?: string[]; authors?: string[]; kinds?: number[]; since?: number; until?: number; limit?: number } & Record<string, unknown>;

const isReplaceable = (kind: number) => kind === 0 || kind === 3 || (kind >= 10000 && kind < 20000);
const isAddressable = (kind: number) => kind >= 30000 && kind < 40000;
const dTag = (e: Event) => e.tags.find((t) => t[0] === 'd')?.[1] ?? '';

function matches(e: Event, f: Filter): boolean {
  if (f.ids && !f.ids.includes(e.id)) return false;
  if (f.authors && !f.authors.includes(e.pubkey)) return false;
  if (f.kinds && !f.kinds.includes(e.kind)) return false;
  if (f.since !== undefined && e.created_at < f.since) return false;
  if (f.until !== undefined && e.created_at > f.until) return false;
  for (const [key, values] of Object.entries(f)) {
    if (!key.startsWith('#') || !Array.isArray(values)) continue;
    if (!e.tags.some((t) => t[0] === key.slice(1) && values.includes(t[1]))) return false;
  }
  return true;
}

export async function startNostrSimulator(opts: NostrSimulatorOptions = {}): Promise<NostrSimulator> {
  const relays = new Map<string, Relay>();
  const requests: NostrRelayMessage[] = [];
  let origin = '';

  function store(relay: Relay, event: Event): { ok: boolean; message: string } {
    if (relay.events.some((e) => e.id === event.id)) return { ok: true, message: 'duplicate: already have this event' };
    if (event.kind === 5) {
      const ids = event.tags.filter((t) => t[0] === 'e').map((t) => t[1]);
      const addresses = event.tags.filter((t) => t[0] === 'a').map((t) => t[1]);
      relay.events = relay.events.filter((e) => !(e.pubkey === event.pubkey && (ids.includes(e.id) || addresses.includes(`${e.kind}:${e.pubkey}:${dTag(e)}`))));
    } else if (isReplaceable(event.kind) || isAddressable(event.kind)) {
      const same = (e: Event) => e.pubkey === event.pubkey && e.kind === event.kind && (!isAddressable(event.kind) || dTag(e) === dTag(event));
      const older = relay.events.filter(same);
      if (older.some((e) => e.created_at > event.created_at)) return { ok: true, message: 'duplicate: have a newer event' };
      relay.events = relay.events.filter((e) => !same(e));
    }
    relay.events.push(event);
    return { ok: true, message: '' };
  }

  function onEvent(relay: Relay, socket: WebSocket, event: unknown) {
    const id = typeof event === 'object' && event !== null && typeof (event as Event).id === 'string' ? (event as Event).id : '';
    const reply = (ok: boolean, message: string) => socket.send(JSON.stringify(['OK', id, ok, message]));
    const failure = relay.failures.shift();
    switch (failure) {
      case 'blocked': return reply(false, 'blocked: this relay does not accept your events');
      case 'restricted': return reply(false, 'restricted: this pubkey is not allowed to publish here');
      case 'rate_limited': return reply(false, 'rate-limited: slow down, you are posting too fast');
      case 'error': return reply(false, 'error: could not save the event');
      case 'drop': return socket.terminate();
      case 'silent': return undefined;
      case undefined: break;
    }
    if (!id) return socket.send(JSON.stringify(['NOTICE', 'invalid: event is not an object with an id']));
    // verifyEvent checks the shape, that the id is the hash of the serialized event, and the signature.
    if (!verifyEvent(JSON.parse(JSON.stringify(event)) as Event)) return reply(false, 'invalid: event id or signature does not verify');
    if (JSON.stringify(event).length > MAX_EVENT_BYTES) return reply(false, 'invalid: event too large');
    const e = event as Event;
    if (relay.allowed && !relay.allowed.has(e.pubkey)) return reply(false, 'restricted: this pubkey is not allowed to publish here');
    const now = Math.floor(Date.now() / 1000);
    if (e.created_at > now + 15 * 60) return reply(false, 'invalid: event creation date is too far off from the current time');
    const result = store(relay, e);
    return reply(result.ok, result.message);
  }

  function onMessage(relay: Relay, socket: WebSocket, raw: string) {
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      return socket.send(JSON.stringify(['NOTICE', 'error: could not parse message']));
    }
    if (!Array.isArray(msg) || typeof msg[0] !== 'string') return socket.send(JSON.stringify(['NOTICE', 'error: messages are JSON arrays']));
    requests.push({ relay: relay.name, type: msg[0], at: new Date() });
    if (requests.length > 1000) requests.splice(0, requests.length - 1000);
    switch (msg[0]) {
      case 'EVENT': return onEvent(relay, socket, msg[1]);
      case 'REQ': {
        const sub = msg[1];
        if (typeof sub !== 'string' || !sub || sub.length > 64) return socket.send(JSON.stringify(['CLOSED', String(sub), 'invalid: bad subscription id']));
        const filters = msg.slice(2).filter((f): f is Filter => typeof f === 'object' && f !== null);
        const seen = new Set<string>();
        for (const f of filters) {
          const found = relay.events.filter((e) => matches(e, f)).sort((a, b) => b.created_at - a.created_at).slice(0, f.limit ?? 500);
          for (const e of found) if (!seen.has(e.id)) { seen.add(e.id); socket.send(JSON.stringify(['EVENT', sub, e])); }
        }
        return socket.send(JSON.stringify(['EOSE', sub]));
      }
      case 'CLOSE': return socket.send(JSON.stringify(['CLOSED', String(msg[1]), '']));
      default: return socket.send(JSON.stringify(['NOTICE', `error: unknown message type ${msg[0]}`]));
    }
  }

  const sim = {
    relay(name: string) {
      if (!/^[a-z0-9-]{1,40}$/.test(name)) throw new Error(`relay names are lower-case words, got ${name}`);
      const existing = relays.get(name);
      if (existing) return existing.url;
      const url = `${origin.replace(/^http/, 'ws')}/${name}`;
      relays.set(name, { name, url, events: [], failures: [] });
      return url;
    },
    relays: () => [...relays.values()].map((r) => r.url),
    events(relay?: string) {
      const list = relay === undefined ? [...relays.values()] : [...relays.values()].filter((r) => r.url === relay || r.name === relay);
      return list.flatMap((r) => r.events.map((e) => JSON.parse(JSON.stringify(e)) as Event));
    },
    fail(mode: NostrFailureMode, times = 1, relay?: string) {
      if (!NOSTR_FAILURE_MODES.includes(mode)) throw new Error(`unknown failure mode ${mode}; known: ${NOSTR_FAILURE_MODES.join(', ')}`);
      const targets = relay === undefined ? [...relays.values()] : [...relays.values()].filter((r) => r.url === relay || r.name === relay);
      if (!targets.length) throw new Error(`no relay ${relay}`);
      for (const r of targets) for (let i = 0; i < times; i++) r.failures.push(mode);
    },
    allowOnly(relay: string, pubkeys: string[] | undefined) {
      const r = [...relays.values()].find((x) => x.url === relay || x.name === relay);
      if (!r) throw new Error(`no relay ${relay}`);
      r.allowed = pubkeys ? new Set(pubkeys) : undefined;
    },
    requests,
    state: () => ({ relays: [...relays.values()].map((r) => ({ name: r.name, url: r.url, events: r.events.length, failures: [...r.failures] })), requestCount: requests.length }),
    reset() {
      for (const r of relays.values()) { r.events = []; r.failures = []; }
      requests.length = 0;
    },
  };

  async function control(req: IncomingMessage, res: ServerResponse, path: string) {
    const send = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
    if (req.method === 'GET' && path === '/__sim/state') return send(200, sim.state());
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown> = {};
    try { body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown> : {}; } catch { return send(400, { error: 'body must be JSON' }); }
    try {
      if (path === '/__sim/failures') sim.fail(body.mode as NostrFailureMode, body.times === undefined ? 1 : Number(body.times), typeof body.relay === 'string' ? body.relay : undefined);
      else if (path === '/__sim/reset') sim.reset();
      else if (path === '/__sim/relays') sim.relay(String(body.name));
      else return send(404, { error: 'unknown control route' });
    } catch (err) {
      return send(400, { error: (err as Error).message });
    }
    return send(200, sim.state());
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path.startsWith('/__sim/')) return void control(req, res, path);
    const relay = relays.get(path.slice(1));
    // NIP-11: the relay information document, for Accept: application/nostr+json.
    if (relay && /application\/nostr\+json/.test(req.headers.accept ?? '')) {
      res.writeHead(200, { 'content-type': 'application/nostr+json', 'access-control-allow-origin': '*' });
      return void res.end(JSON.stringify({ name: `Herald simulator ${relay.name}`, supported_nips: [1, 9, 11, 23], software: 'herald-sim', limitation: { max_message_length: MAX_EVENT_BYTES } }));
    }
    res.writeHead(relay ? 426 : 404, { 'content-type': 'text/plain' });
    res.end(relay ? 'Please use a Nostr client to connect.' : 'Not Found');
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const relay = relays.get(new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(1));
    if (!relay) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data) => onMessage(relay, ws, data.toString()));
      ws.on('error', () => undefined);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  return Object.assign(sim, {
    port,
    origin,
    close: () => new Promise<void>((resolve) => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  });
}
