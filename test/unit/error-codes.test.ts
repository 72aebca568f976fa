import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { allErrorCodes, ERROR_CODES, errorCodeRows, errorCodeSpec, isErrorCode, networkCode, statusesOf, type HttpStatus } from '../../core/domain/error-codes';
import { failureErrorCode, KIND_STATUS, PlatformError } from '../../core/domain/errors';
import { errorBody, fromPlatformError } from '../../apps/api/http-errors';
import { openApiDocument } from '../../apps/api/catalogue/openapi';
import { OPERATIONS } from '../../apps/api/catalogue';

const ROOT = join(__dirname, '..', '..');
const sources = (dir: string): string[] => readdirSync(join(ROOT, dir)).flatMap((name) => {
  const path = join(dir, name);
  return statSync(join(ROOT, path)).isDirectory() ? sources(path) : /\.ts$/.test(name) ? [path] : [];
});
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

describe('the error-code registry', () => {
  it('gives every code a meaning and known statuses', () => {
    const statuses = new Set<number>([400, 401, 403, 404, 405, 408, 409, 413, 415, 416, 429, 431, 500, 502, 503]);
    for (const row of errorCodeRows()) {
      expect({ code: row.code, meaningful: row.meaning.trim().length > 10 }).toEqual({ code: row.code, meaningful: true });
      expect({ code: row.code, unknown: row.status.filter((s) => !statuses.has(s)) }).toEqual({ code: row.code, unknown: [] });
    }
  });

  it('expands the per-network families to concrete codes', () => {
    expect(isErrorCode('tiktok_reconnect_required')).toBe(true);
    expect(isErrorCode('x_not_in_plan')).toBe(true);
    expect(isErrorCode('tiktok_spam_risk')).toBe(false);
    expect(statusesOf(errorCodeSpec('tiktok_reconnect_required'))).toEqual([400]);
    expect(statusesOf(errorCodeSpec('youtube_not_in_plan'))).toEqual([403]);
  });

  it('keeps the codes the spec fixes, with their statuses', () => {
    const spec: Array<[string, HttpStatus]> = [
      ['reddit_unavailable', 503], ['platform_not_supported', 400], ['tiktok_reconnect_required', 400], ['invalid_post_url', 400],
      ['tiktok_privacy_unavailable', 400], ['PROFILE_LIMIT_REACHED', 403], ['PROFILE_BLOCKED', 403], ['PROFILE_NOT_FOUND', 404], ['reauth_required', 409],
    ];
    for (const [code, status] of spec) expect({ code, has: isErrorCode(code) && statusesOf(errorCodeSpec(code)).includes(status) }).toEqual({ code, has: true });
    for (const code of ['account_checkpoint_required', 'account_reauth_required', 'account_restricted', 'youtube_channel_daily_limit', 'unconfirmed_email',
      'spam_risk_too_many_pending_share', 'spam_risk_too_many_posts', 'spam_risk_user_banned_from_posting', 'spam_risk_text', 'spam_risk']) {
      expect({ code, registered: isErrorCode(code) }).toEqual({ code, registered: true });
    }
  });

  it('lists every code in the OpenAPI document, and error_code is one of them', () => {
    const doc = openApiDocument(OPERATIONS, { namespace: 'api' }) as { 'x-error-codes': Array<{ code: string; status: number[]; meaning: string }>; components: { schemas: { Error: { properties: { error_code: { enum: string[] } } } } } };
    expect(doc['x-error-codes'].map((r) => r.code)).toEqual(errorCodeRows().map((r) => r.code));
    expect(doc['x-error-codes'].find((r) => r.code === 'PROFILE_NOT_FOUND')).toMatchObject({ status: [404] });
    expect(doc.components.schemas.Error.properties.error_code.enum).toEqual(allErrorCodes());
  });
});

describe('codes the network adapters report', () => {
  /** The status a failure kind is answered with (apps/api/http-errors.ts fromPlatformError). */
  const KIND_ANSWER: Record<string, HttpStatus> = { invalid_content: 400, rejected: 502, restricted: 429 };
  const found: Array<{ file: string; code: string; kind: string }> = [];
  for (const file of sources('adapters/platforms')) {
    const text = read(file);
    for (const m of text.matchAll(/kind: '(invalid_content|rejected)'[^}\n]*?code: '(\w+)'/g)) found.push({ file, kind: m[1]!, code: m[2]! });
    for (const m of text.matchAll(/kind: 'restricted', reason: '(\w+)'(?:[^}\n]*?code: '(\w+)')?/g)) found.push({ file, kind: 'restricted', code: m[2] ?? m[1]! });
    // Local helpers (invalid, refuse) taking the code first: the kind they raise is in their definition.
    for (const helper of text.matchAll(/(?:const|function)\s+(invalid|refuse)\s*=?\s*\(code[^]{0,200}?kind: '(\w+)'/g)) {
      for (const call of text.matchAll(new RegExp(`\\b${helper[1]}\\('(\\w+)'`, 'g'))) found.push({ file, kind: helper[2]!, code: call[1]! });
    }
    // Helpers taking the message first and the code second (LinkedIn's, Threads'): their calls with a literal code.
    for (const helper of text.matchAll(/(?:const|function)\s+(invalid|refuse)\s*=?\s*\(message[^]{0,200}?kind: '(\w+)'/g)) {
      for (const call of text.matchAll(new RegExp(`\\b${helper[1]}\\([^;]*?, '(\\w+)'\\)`, 'g'))) found.push({ file, kind: helper[2]!, code: call[1]! });
    }
    for (const m of text.matchAll(/^\s+\d+: '(\w+)',$/gm)) found.push({ file, kind: 'invalid_content', code: m[1]! });
  }

  it('finds them', () => expect(found.length).toBeGreaterThan(200));

  it('are registered, with the status their kind is answered with', () => {
    const wrong = found.filter(({ code, kind }) => !isErrorCode(code) || !statusesOf(errorCodeSpec(code)).includes(KIND_ANSWER[kind]!));
    expect(wrong).toEqual([]);
  });

  it('an unregistered code the network sent is reported with the generic code, and as network_code', () => {
    expect(networkCode('quota_exceeded_in_some_new_way', 'platform_rejected')).toBe('platform_rejected');
    expect(failureErrorCode({ kind: 'invalid_content', code: 'some_new_code' })).toBe('invalid_content');
    expect(failureErrorCode({ kind: 'invalid_content', code: 'text_too_long' })).toBe('text_too_long');
    const err = fromPlatformError(new PlatformError('youtube', { kind: 'rejected', code: 'some_new_code' }, 'no'), new Date());
    expect(errorBody(err)).toMatchObject({ error_code: 'platform_rejected', network_code: 'some_new_code', platform: 'youtube' });
    const known = fromPlatformError(new PlatformError('youtube', { kind: 'rejected', code: 'comments_disabled' }, 'no'), new Date());
    expect(errorBody(known)).not.toHaveProperty('network_code');
  });
});

describe('codes written into bodies by hand', () => {
  it('are registered', () => {
    const files = [...sources('apps'), ...sources('core')];
    const literal = files.flatMap((file) => [...read(file).matchAll(/error_code: '(\w+)'/g)].map((m) => ({ file, code: m[1]! })));
    expect(literal.length).toBeGreaterThan(5);
    expect(literal.filter(({ code }) => !isErrorCode(code))).toEqual([]);
  });

  it('each kind has a registered generic code of its status', () => {
    for (const [kind, status] of Object.entries(KIND_STATUS)) {
      const codes = Object.entries(ERROR_CODES).filter(([, spec]) => statusesOf(spec).includes(status));
      expect({ kind, any: codes.length > 0 }).toEqual({ kind, any: true });
    }
  });
});
