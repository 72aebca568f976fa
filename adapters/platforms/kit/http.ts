/**
 * One JSON exchange with a network's HTTP API, shared by the platform adapters. It never throws:
 * the outcome goes to the adapter's one failure-mapping function, which gives it a meaning.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { Platform } from '../../../core/domain/platforms';
import { ExchangeTimeout, nodeTextExchange, type TextAnswer, type TextExchangeInit } from './node-http';

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export type HttpExchange =
  | { kind: 'response'; status: number; headers: Headers; body: unknown }
  /** No answer: the outcome on the network's side is unknown. */
  | { kind: 'no_response'; reason: 'timeout' | 'aborted' | 'network'; detail?: string };

export interface ExchangeOptions {
  fetch: typeof fetch;
  timeoutMs: number;
  /** Cancellation from the caller (the activity), on top of the timeout. */
  signal?: AbortSignal;
}

/** The error may carry the URL, which for some networks holds a token: only its cause code is kept. */
function networkDetail(err: unknown): string | undefined {
  const cause = isObject(err) ? (err as { cause?: unknown }).cause : undefined;
  return isObject(cause) && typeof cause.code === 'string' ? cause.code : undefined;
}

/**
 * The signal of one call: the caller's cancellation and a timeout, as one AbortController with a
 * timer (unref'd, so it never holds the process) and a listener on the caller's signal. `done()`
 * clears both; call it in a `finally` once the answer's body is read. Cheaper than
 * `AbortSignal.timeout` plus `AbortSignal.any` on Node 20, and nothing outlives the call.
 * `timedOut` says the timeout fired (the call's outcome is `timeout`), the caller's
 * `signal.aborted` that it was cancelled.
 */
export interface CallDeadline {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  done(): void;
}

export function callDeadline(timeoutMs: number, caller?: AbortSignal): CallDeadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  let forward: (() => void) | undefined;
  if (caller) {
    if (caller.aborted) controller.abort(caller.reason);
    else {
      forward = () => controller.abort(caller.reason);
      caller.addEventListener('abort', forward, { once: true });
    }
  }
  return {
    signal: controller.signal,
    get timedOut() { return timedOut; },
    done() {
      clearTimeout(timer);
      if (forward) caller!.removeEventListener('abort', forward);
    },
  };
}

/** The platform's fetch as loaded: only calls meant for it take the node:http path. */
const nativeFetch = globalThis.fetch;
/** On a fetch wrapping the native one (kit/traced-fetch.ts): the same call over node:http, observed alike. */
export const TEXT_EXCHANGE = Symbol('herald.textExchange');
export type TextExchange = (url: string, init: TextExchangeInit) => Promise<TextAnswer | undefined>;

/**
 * On a fetch that observes calls (kit/traced-fetch.ts): the same observation over another
 * transport. Self-hosted networks put their checked, pinned transport under it (kit/instance.ts).
 */
export const OVER_TRANSPORT = Symbol('herald.overTransport');
export type OverTransport = (transport: typeof fetch) => typeof fetch;

function textExchangeOf(f: typeof fetch): TextExchange | undefined {
  if (f === nativeFetch) return nodeTextExchange;
  return (f as typeof fetch & { [TEXT_EXCHANGE]?: TextExchange })[TEXT_EXCHANGE];
}

export async function exchangeJson(url: string, init: RequestInit, opts: ExchangeOptions): Promise<HttpExchange> {
  let res: Pick<Response, 'status' | 'headers'> | undefined;
  let text = '';
  // Over node:http the exchange keeps its own deadline; fetch gets one signal for both.
  const direct = textExchangeOf(opts.fetch);
  if (direct) {
    try {
      const answer = await direct(url, { ...init, signal: opts.signal, timeoutMs: opts.timeoutMs });
      if (answer) {
        res = answer;
        text = answer.text;
      }
    } catch (err) {
      const reason = err instanceof ExchangeTimeout ? 'timeout' : opts.signal?.aborted ? 'aborted' : 'network';
      return { kind: 'no_response', reason, detail: networkDetail(err) };
    }
  }
  if (!res) {
    const deadline = callDeadline(opts.timeoutMs, opts.signal);
    try {
      const fetched = await opts.fetch(url, { ...init, signal: deadline.signal });
      res = fetched;
      text = await fetched.text();
    } catch (err) {
      const reason = deadline.timedOut ? 'timeout' : opts.signal?.aborted ? 'aborted' : 'network';
      return { kind: 'no_response', reason, detail: networkDetail(err) };
    } finally {
      deadline.done();
    }
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { kind: 'response', status: res.status, headers: res.headers, body };
}

/** A clock: every adapter factory takes one (`now`), so expiry, pauses and processing deadlines are testable. */
export type Now = () => Date;
export const systemNow: Now = () => new Date();

/**
 * What every network's failure mapping is given besides the outcome: `map<Net>Failure(outcome,
 * context)`. A network extends it only by what its mapping needs (`FailureContext & { call:
 * LinkedInCall }`). The client builds it when the call fails, from its own timeout and clock.
 */
export type FailureContext = {
  /** The call's timeout: a missing answer's message names it. */
  timeoutMs: number;
  /** When the call failed (the factory's clock): Retry-After dates, reset times and pauses run from it. */
  now: Date;
};

/**
 * The one message for "the network did not answer": the request may or may not have taken effect,
 * so the failure is transient and the result says the outcome is unknown.
 */
export function noResponseMessage(network: string, outcome: Extract<HttpExchange, { kind: 'no_response' }>, timeoutMs: number): string {
  const what = outcome.reason === 'timeout' ? `${network} did not answer within ${timeoutMs} ms`
    : outcome.reason === 'aborted' ? `The request to ${network} was cancelled before it answered`
    : `The connection to ${network} failed${outcome.detail ? ` (${outcome.detail})` : ''}`;
  return `${what}; the outcome is unknown: the request may or may not have taken effect.`;
}

/**
 * Milliseconds to wait from a `Retry-After` header (delta seconds or an HTTP date), `fallbackMs`
 * when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, now: Date, fallbackMs: number): number {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return fallbackMs;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - now.getTime()) : fallbackMs;
}

/**
 * Milliseconds until a reset time given in epoch seconds (x-rate-limit-reset, ratelimit-reset),
 * at least `minMs`; undefined when the header is absent or unreadable.
 */
export function resetHeaderMs(headers: Headers, name: string, now: Date, minMs = 1000): number | undefined {
  const reset = Number(headers.get(name));
  if (!Number.isFinite(reset) || reset <= 0) return undefined;
  return Math.max(minMs, Math.ceil(reset * 1000 - now.getTime()));
}

/** The bytes of a stream; past `maxBytes` it stops reading and answers undefined. */
export async function collectBytes(chunks: AsyncIterable<Uint8Array>, maxBytes = Infinity): Promise<Buffer | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts);
}

/** All the bytes of a stream. */
export const collectAll = async (chunks: AsyncIterable<Uint8Array>): Promise<Buffer> => (await collectBytes(chunks))!;

/** A non-empty string, else undefined. */
export const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
/** A finite number (or numeric string), else undefined. */
export const num = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};
/** The strings of a list. */
export const strList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((i): i is string => typeof i === 'string') : []);

/** A form-encoded POST (OAuth token endpoints, Graph calls). */
export const formPost = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
  body: new URLSearchParams(fields).toString(),
});

/** A base URL without its trailing slashes. */
export const trimBase = (url: string): string => url.replace(/\/+$/, '');

/**
 * A 2xx whose body is not what the call returns. The network may have acted on the request, so
 * retrying could post twice: the failure is a refusal to look into, not a transient one.
 */
export function malformedAnswer(
  platform: Platform, name: string, outcome: { status: number; what: string }, thing: string,
): PlatformError {
  return new PlatformError(platform, { kind: 'rejected', code: 'unexpected_response' },
    `${name} answered HTTP ${outcome.status} without ${outcome.what}; check ${thing} before retrying.`, { status: outcome.status });
}
