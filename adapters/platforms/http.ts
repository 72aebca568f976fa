/**
 * One JSON exchange with a network's HTTP API, shared by the platform adapters. It never throws:
 * the outcome goes to the adapter's one failure-mapping function, which gives it a meaning.
 */
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

export async function exchangeJson(url: string, init: RequestInit, opts: ExchangeOptions): Promise<HttpExchange> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  let text: string;
  try {
    res = await opts.fetch(url, { ...init, signal });
    text = await res.text();
  } catch (err) {
    const reason = timeout.aborted ? 'timeout' : opts.signal?.aborted ? 'aborted' : 'network';
    return { kind: 'no_response', reason, detail: networkDetail(err) };
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { kind: 'response', status: res.status, headers: res.headers, body };
}
