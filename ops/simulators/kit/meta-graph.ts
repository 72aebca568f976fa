/**
 * What the loopback simulators of Meta's Graph-style APIs (Instagram, Threads) share: the Graph
 * error body, the failures every call can be armed with, parameters read the way the Graph API reads
 * them, the media crawler (fetch and sniff by magic numbers), the sandbox consent page and the
 * answer to it.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, sendText, type SimRequest } from './http';

/** Failures that any API call can be armed with, on both networks. */
export const META_SIM_COMMON_FAILURE_MODES = [
  /** Any API call: 190/463, the token expired. */
  'token_expired',
  /** Any API call: 190/458, the user removed the app. */
  'token_revoked',
  /** Any API call: code 4 with X-Business-Use-Case-Usage estimated_time_to_regain_access. */
  'rate_limited',
  /** Any API call: HTTP 500, code 2, is_transient. */
  'server_error',
  /** Any API call: code 10, the app lacks the permission. */
  'permission_denied',
] as const;

/** The answers of the common failures whose body is the same on both networks. */
export const META_SIM_COMMON_ERRORS: Record<'token_expired' | 'token_revoked' | 'server_error' | 'permission_denied', { status: number; error: Record<string, unknown> }> = {
  token_expired: { status: 400, error: { message: 'Error validating access token: Session has expired.', code: 190, error_subcode: 463 } },
  token_revoked: { status: 400, error: { message: 'Error validating access token: The user has not authorized application.', code: 190, error_subcode: 458 } },
  server_error: { status: 500, error: { message: 'An unexpected error has occurred. Please retry your request later.', code: 2, is_transient: true } },
  permission_denied: { status: 403, error: { message: '(#10) Application does not have permission for this action', code: 10 } },
};

/**
 * Accounts the network has checkpointed until the user completes what it asks (sign in to the app,
 * confirm it is them): sticky, unlike the one-shot `checkpoint` failure mode. While an account is
 * in it, every Graph API call made with its token answers the network's checkpoint error.
 * `POST /__sim/checkpoint {account_id, checkpointed}` sets or clears it over HTTP.
 */
export function createCheckpointedAccounts(exists: (accountId: string) => boolean) {
  const ids = new Set<string>();
  const set = (accountId: string, checkpointed: boolean) => {
    if (!exists(accountId)) throw new Error(`unknown account ${accountId}`);
    if (checkpointed) ids.add(accountId);
    else ids.delete(accountId);
  };
  return {
    has: (accountId: string) => ids.has(accountId),
    set,
    list: () => [...ids],
    clear: () => ids.clear(),
    control: (body: Record<string, unknown>) => set(String(body.account_id ?? ''), body.checkpointed !== false && body.checkpointed !== 'false'),
  };
}

/** Graph's `{error:{message,type,code,error_subcode,fbtrace_id}}`, OAuthException unless the error names its type. */
export function sendGraphError(res: ServerResponse, status: number, error: Record<string, unknown>, fbtraceId: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { type: 'OAuthException', ...error, fbtrace_id: fbtraceId } }, headers);
}

/** Query, form, multipart and JSON parameters together, as the Graph API reads them. */
export function graphParamsOf(req: SimRequest): Record<string, string> {
  const out: Record<string, string> = { ...req.query };
  const body = req.body;
  const add = (fields: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(fields)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  };
  if (body.kind === 'form' || body.kind === 'multipart') add(body.fields);
  if (body.kind === 'json' && body.value && typeof body.value === 'object' && !Array.isArray(body.value)) add(body.value as Record<string, unknown>);
  return out;
}

export interface SniffedMedia { kind: 'jpeg' | 'png' | 'mp4' | 'unknown'; width?: number; height?: number; durationSeconds?: number }

/** JPEG size from its SOF marker. */
function jpegSize(buf: Buffer): { width: number; height: number } | undefined {
  let pos = 2;
  while (pos + 9 < buf.length) {
    if (buf[pos] !== 0xff) return undefined;
    const marker = buf[pos + 1]!;
    const length = buf.readUInt16BE(pos + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: buf.readUInt16BE(pos + 5), width: buf.readUInt16BE(pos + 7) };
    }
    pos += 2 + length;
  }
  return undefined;
}

/** Duration from the MP4 `moov/mvhd` box. */
function mp4Duration(buf: Buffer): number | undefined {
  const walk = (start: number, end: number): number | undefined => {
    let pos = start;
    while (pos + 8 <= end) {
      let size = buf.readUInt32BE(pos);
      const type = buf.toString('latin1', pos + 4, pos + 8);
      let header = 8;
      if (size === 1 && pos + 16 <= end) { size = Number(buf.readBigUInt64BE(pos + 8)); header = 16; }
      if (size === 0) size = end - pos;
      if (size < header) return undefined;
      if (type === 'moov') return walk(pos + header, Math.min(pos + size, end));
      if (type === 'mvhd') {
        const v = buf[pos + header]!;
        const timescale = buf.readUInt32BE(pos + header + (v === 1 ? 20 : 12));
        const duration = v === 1 ? Number(buf.readBigUInt64BE(pos + header + 24)) : buf.readUInt32BE(pos + header + 16);
        return timescale ? duration / timescale : undefined;
      }
      pos += size;
    }
    return undefined;
  };
  return walk(0, buf.length);
}

/** What the bytes are, by their magic numbers (never by the URL or the served content type). */
export function sniffMedia(buf: Buffer): SniffedMedia {
  if (buf.length > 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return { kind: 'jpeg', ...jpegSize(buf) };
  if (buf.length > 24 && buf.toString('latin1', 1, 4) === 'PNG') return { kind: 'png', width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  if (buf.length > 12 && buf.toString('latin1', 4, 8) === 'ftyp') return { kind: 'mp4', durationSeconds: mp4Duration(buf) };
  return { kind: 'unknown' };
}

/** Fetches a media URL the way Meta's crawler does: it must answer 200 within the time limit. */
export async function fetchMedia(url: string, maxBytes: number): Promise<{ ok: true; data: Buffer; contentType: string } | { ok: false; reason: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'the media URL is not a valid URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'the media URL is not http(s)' };
  try {
    const res = await fetch(parsed, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
    if (res.status !== 200) return { ok: false, reason: `the media URL answered HTTP ${res.status}` };
    const data = Buffer.from(await res.arrayBuffer());
    if (data.length > maxBytes) return { ok: false, reason: `the media is larger than ${maxBytes} bytes` };
    return { ok: true, data, contentType: res.headers.get('content-type') ?? '' };
  } catch {
    return { ok: false, reason: 'the media URL could not be fetched' };
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sandbox's stand-in for the network's consent screen: pick an account, allow or cancel. */
export function approvePage(input: {
  network: string; appName: string; action: string; scopes: string[];
  hidden: Record<string, string>; accounts: Array<{ id: string; username: string; name: string }>;
}): string {
  const hidden = Object.entries(input.hidden).map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('');
  const accounts = input.accounts.length
    ? input.accounts.map((a, i) => `<label><input type="radio" name="account_id" value="${escapeHtml(a.id)}"${i === 0 ? ' checked' : ''}> @${escapeHtml(a.username)} (${escapeHtml(a.name)})</label><br>`).join('')
    : '<p>No sandbox accounts exist yet.</p>';
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(input.network)} (simulator)</title></head><body>
<h1>${escapeHtml(input.network)} simulator</h1><p><b>${escapeHtml(input.appName)}</b> asks for: ${input.scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="${escapeHtml(input.action)}">${hidden}${accounts}
<button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Cancel</button></form></body></html>`;
}

/**
 * The answer to the consent page (the POST back to the authorize path) as Instagram and Threads
 * give it: a 302 to the redirect URI with the code, or with `error=access_denied`,
 * `error_reason=user_denied` and the network's description; `state` when sent; the code redirect
 * ends in `#_`. An unknown app or a redirect URI that is not http(s) is a plain 400.
 */
export function answerConsent(res: ServerResponse, f: Record<string, string>, input: {
  appExists(clientId: string): boolean; accountExists(accountId: string): boolean;
  issueCode(accountId: string, clientId: string, redirectUri: string): string; deniedDescription: string;
}): void {
  if (!input.appExists(f.client_id ?? '') || !/^https?:\/\//.test(f.redirect_uri ?? '')) return sendText(res, 400, 'Invalid Request');
  const target = new URL(f.redirect_uri!);
  if (f.decision === 'allow') {
    if (!input.accountExists(f.account_id ?? '')) return sendText(res, 400, 'Choose an account');
    target.searchParams.set('code', input.issueCode(f.account_id!, f.client_id!, f.redirect_uri!));
  } else {
    target.searchParams.set('error', 'access_denied');
    target.searchParams.set('error_reason', 'user_denied');
    target.searchParams.set('error_description', input.deniedDescription);
  }
  if (f.state) target.searchParams.set('state', f.state);
  res.writeHead(302, { location: `${target.toString()}${f.decision === 'allow' ? '#_' : ''}` });
  res.end();
}
