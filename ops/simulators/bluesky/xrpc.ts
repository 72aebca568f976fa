/** XRPC on the wire as the simulator speaks it: errors, the encodings atproto uses (CIDs, TIDs), and request readers. */
import { createHash } from 'node:crypto';
import type { SimRequest } from '../kit/http';

export class XrpcError {
  constructor(readonly status: number, readonly error: string, readonly message: string, readonly headers: Record<string, string> = {}, readonly body?: unknown) {}
}
export const invalidRequest = (message: string) => new XrpcError(400, 'InvalidRequest', message);

// -- encodings ------------------------------------------------------------------------------

export const B32 = 'abcdefghijklmnopqrstuvwxyz234567';
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** CIDv1, sha2-256, multibase base32: codec 0x71 (dag-cbor) for records, 0x55 (raw) for blobs. */
export function cidOf(codec: 0x71 | 0x55, data: Buffer | string): string {
  const digest = createHash('sha256').update(data).digest();
  return `b${base32(Buffer.concat([Buffer.from([0x01, codec, 0x12, 0x20]), digest]))}`;
}
export const CID = /^b[a-z2-7]{58}$/;

export const S32 = '234567abcdefghijklmnopqrstuvwxyz';
export const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
export const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const AT_URI = /^at:\/\/([^/\s]+)\/([a-zA-Z0-9.-]+)\/([A-Za-z0-9._:~-]{1,512})$/;
export const LANG = /^(?:[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{1,8})*|[ix]-[a-zA-Z0-9]{1,8}(?:-[a-zA-Z0-9]{1,8})*)$/;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
export const graphemeCount = (s: string) => [...graphemes.segment(s)].length;

export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the PDS stores as a blob's type: sniffed from the bytes, like the PDS does, else the header. */
export function sniffMime(data: Buffer, declared: string): string {
  const hex = data.subarray(0, 12).toString('hex');
  if (hex.startsWith('ffd8ff')) return 'image/jpeg';
  if (hex.startsWith('89504e47')) return 'image/png';
  if (hex.startsWith('47494638')) return 'image/gif';
  if (hex.startsWith('52494646') && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (data.subarray(4, 8).toString('latin1') === 'ftyp') return data.subarray(8, 10).toString('latin1') === 'qt' ? 'video/quicktime' : 'video/mp4';
  if (hex.startsWith('1a45dfa3')) return 'video/webm';
  return declared || 'application/octet-stream';
}

export const megabytes = (n: number) => `${(n / 1_000_000).toFixed(2)}MB`;

export const jsonBody = (req: SimRequest): Record<string, unknown> => {
  if (req.body.kind === 'json' && isObj(req.body.value)) return req.body.value;
  if (req.body.kind === 'invalid') throw invalidRequest('Invalid JSON body');
  throw invalidRequest('Request encoding (Content-Type) required but not provided');
};
export const need = (obj: Record<string, unknown>, key: string, where = 'Input'): string => {
  const v = obj[key];
  if (typeof v !== 'string' || !v) throw invalidRequest(`${where} must have the property "${key}"`);
  return v;
};
export const param = (req: SimRequest, key: string): string => {
  const v = req.query[key];
  if (!v) throw invalidRequest(`Error: Params must have the property "${key}"`);
  return v;
};
