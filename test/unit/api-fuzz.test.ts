import { gzipSync } from 'node:zlib';
import type Router from '@koa/router';
import { createProfile } from '../../core/usecases/profiles';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { anApiServer, multipart, type HttpAnswer, type RawRequest } from '../support/api-app';
import { seededRandom } from '../support/seeded-random';

/**
 * Malformed requests against every route of the API, in-process: random JSON and forms, broken
 * and truncated multipart bodies, wrong types, NUL bytes and other control characters, huge
 * values, bad content types and encodings, odd methods, bad keys. Whatever arrives, the API
 * never answers 5xx, and every error answer is JSON `{success:false, message, error_code}`.
 *
 * Deterministic: a seeded PRNG draws every request, so a failure names the seed and the request
 * number that reproduce it; HERALD_FUZZ_SHOW=<n> prints request n whole. HERALD_FUZZ_SEED and
 * HERALD_FUZZ_COUNT explore further by hand. The count keeps CI fast on a loaded 2-core machine.
 */
const SEED = Number(process.env.HERALD_FUZZ_SEED ?? 0x5eed_2026);
const COUNT = Number(process.env.HERALD_FUZZ_COUNT ?? 1500);
const SHOW = process.env.HERALD_FUZZ_SHOW === undefined ? -1 : Number(process.env.HERALD_FUZZ_SHOW);

jest.setTimeout(120_000);

/** A seeded generator with the helpers the fuzz uses. */
function prng(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Rng = ReturnType<typeof prng>;

const FIELDS = [
  'user', 'username', 'profile_username', 'profile', 'platform', 'platform[]', 'title', 'description', 'request_id', 'job_id',
  'external_id', 'async_upload', 'scheduled_date', 'timezone', 'add_to_queue', 'max_posts_per_slot', 'video', 'photos[]',
  'secret', 'webhook_url', 'redirect_url', 'page_id', 'location_id', 'slots', 'days_of_week', 'posts_per_slot', 'first_comment',
  'discord_title', 'count', 'page', 'limit', 'status', 'start', 'end', 'state', 'code', 'error', '__proto__', 'constructor',
];
const PLATFORM_WORDS = ['discord', 'telegram', 'reddit', 'Reddit', ' REDDIT ', 'discord,reddit', 'tiktok', 'myspace', 'x', 'twitter', ''];

/** Ids the API handed out during the run (job ids, request ids), so lookups also hit real records. */
const knownIds: string[] = [];

function nastyString(r: Rng): string {
  if (knownIds.length && r.chance(0.08)) return r.pick(knownIds);
  switch (r.int(14)) {
    case 0: return '';
    case 1: return '\u0000';
    case 2: return `a${String.fromCharCode(r.int(32))}b`;
    case 3: return '\ud800';
    case 4: return 'x'.repeat(r.pick([129, 256, 1000, 70_000]));
    case 5: return r.pick(['alice', 'ghost', 'facebook-page', 'validate-jwt', '..', '../../etc/passwd', '%00', '$gt', '{"$ne":null}', 'null', 'true']);
    case 6: return r.pick(PLATFORM_WORDS);
    case 7: return r.pick(['2027-01-01T10:00:00Z', '2020-01-01', 'not a date', '9999-99-99T99:99', 'Mars/Olympus', 'Europe/Paris', '-1', '1e309', '0']);
    case 8: return r.pick(['https://example.com/v.mp4', 'http://127.0.0.1/x', 'ftp://x', 'file:///etc/passwd', 'javascript:alert(1)']);
    case 9: return '💥'.repeat(r.int(70));
    case 10: return Array.from({ length: r.int(20) }, () => String.fromCharCode(r.int(0x3000))).join('');
    case 11: return `job_${r.int(1000)}`;
    case 12: return `req_${r.int(1000)}`;
    default: return `<script>${r.int(10)}</script>`;
  }
}

function nastyValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 5 : 8)) {
    case 0: case 1: case 2: return nastyString(r);
    case 3: return r.pick([0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER, 42]);
    case 4: return r.pick([true, false, null]);
    case 5: return Array.from({ length: r.int(5) }, () => nastyValue(r, depth + 1));
    case 6: return Object.fromEntries(Array.from({ length: r.int(4) }, () => [r.pick(FIELDS), nastyValue(r, depth + 1)]));
    default: return Array.from({ length: r.pick([0, 3, 200]) }, () => r.pick(PLATFORM_WORDS));
  }
}

/** A body that often looks almost right, so requests get past the first checks. */
function nastyObject(r: Rng): Record<string, unknown> {
  const fields: Record<string, unknown> = r.chance(0.5) ? { user: 'alice', 'platform[]': ['discord'], title: 'fuzz', username: 'alice', profile_username: 'alice' } : {};
  for (let i = r.int(6); i > 0; i -= 1) fields[r.pick(FIELDS)] = nastyValue(r);
  return fields;
}

/** Form fields as text (forms carry strings only). */
const formText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');

function urlencoded(r: Rng): string {
  const pairs: string[] = [];
  for (const [k, v] of Object.entries(nastyObject(r))) {
    for (const one of Array.isArray(v) ? v : [v]) pairs.push(`${enc(k)}=${enc(formText(one))}`);
  }
  if (r.chance(0.3)) pairs.push(r.pick(['a[b][c][d][e][f][g]=1', 'platform[0]=reddit', 'platform[x]=reddit', '%zz=%', '=&&=', 'user=%00']));
  return pairs.join('&');
}

function multipartBody(r: Rng): { body: Buffer; contentType: string } {
  const fields = Object.entries(nastyObject(r)).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => [k, formText(one)] as [string, string]));
  const files = Array.from({ length: r.int(3) }, () => ({
    field: r.pick(['video', 'photos[]', 'photos', 'thumbnail', 'x']),
    filename: r.pick(['a.png', 'a.mp4', 'a.txt', '', 'weird "name".jpg', '../../x.png']),
    type: r.pick(['image/png', 'video/mp4', 'text/plain', 'application/octet-stream', 'image/png; x=y']),
    data: Buffer.from(Array.from({ length: r.pick([0, 1, 100, 3000]) }, () => r.int(256))),
  }));
  return multipart(fields, files, r.pick(['b0undary', 'x'.repeat(70), '----WebKitFormBoundary7MA4YWxkTrZu0gW']));
}

/** A body the route takes as it is (or nearly), so that one mutation of it reaches deep into the route. */
function validFields(r: Rng, method: string, path: string): Record<string, unknown> {
  const future = () => new Date(Date.UTC(2026, 1 + r.int(10), 1 + r.int(27), r.int(24))).toISOString();
  if (path.startsWith('/api/upload')) {
    return {
      user: 'alice', 'platform[]': ['discord'], title: `t${r.int(1e6)}`, description: 'd',
      ...r.pick([{}, { async_upload: 'true' }, { scheduled_date: future() }, { add_to_queue: 'true' }, { request_id: `req_${r.int(50)}` }]),
    };
  }
  if (path.endsWith('/users') && method === 'POST') return { username: `u${r.int(1e6)}` };
  if (path.endsWith('/users')) return { username: r.pick(['alice', `u${r.int(10)}`]) };
  if (path.endsWith('/credentials')) return { profile_username: 'alice', secret: 'good', name: 'n' };
  if (/users\/(facebook-page|linkedin-page|google-business-location)$/.test(path)) return { profile_username: 'alice', page_id: '123', location_id: '456' };
  if (path.endsWith('/start')) return { profile_username: 'alice', redirect_url: 'https://example.com/back' };
  if (path.endsWith('/posts/retry')) return { request_id: knownIds.length ? r.pick(knownIds) : 'req_1' };
  if (path.endsWith('/queue/settings')) return { profile_username: 'alice', timezone: 'Europe/Paris', slots: [{ day: 'mon', time: '09:00' }], posts_per_slot: 2 };
  if (path.endsWith('/users/notifications') || path.endsWith('/users/profile-webhook')) {
    return { profile_username: 'alice', webhook_url: r.pick(['https://example.com/hook', 'ftp://x', 'http://10.0.0.1/']), telegram_chat_id: r.pick(['-100123', '@chat_name', 'bad']), webhook_events: r.pick([undefined, null, { upload_completed: false }, { nope: true }]), channels: r.pick([undefined, { webhook: true }, { slack: 'yes' }]) };
  }
  if (path.includes('/notifications/deliveries')) return { event: r.pick(['upload_completed', 'nope']), channel: r.pick(['webhook', 'fax']), outcome: r.pick(['failed', 'x']), page: r.pick(['1', '0', 'x']) };
  if (path.includes('/schedule/')) return { title: 'edited', scheduled_date: future(), timezone: 'UTC', discord_title: 'x' };
  return nastyObject(r);
}

/** One change to a valid body: a field set to a nasty value, a NUL in a text, a strange field name, deep nesting. */
function mutate(r: Rng, fields: Record<string, unknown>): Record<string, unknown> {
  const out = { ...fields };
  const keys = Object.keys(out);
  switch (r.int(6)) {
    case 0: if (keys.length) out[r.pick(keys)] = nastyValue(r); break;
    case 1: { const k = keys.length ? r.pick(keys) : 'title'; out[k] = `${formText(out[k])}\u0000`; break; }
    case 2: out[r.pick(['$where', 'a.b', 'x\u0000', '', '__proto__', 'constructor', 'discord_title', 'first_comment'])] = nastyValue(r); break;
    case 3: out[r.pick(FIELDS)] = JSON.parse(`${'['.repeat(40)}1${']'.repeat(40)}`); break;
    case 4: out.extra = { nested: { $gt: '', 'k.k': 1 } }; break;
    default: break;
  }
  return out;
}

function validBody(r: Rng, method: string, path: string): Pick<RawRequest, 'body' | 'headers'> {
  const fields = mutate(r, validFields(r, method, path));
  if (path === '/api/upload_photos' || path === '/api/upload' || r.chance(0.2)) {
    const pairs = Object.entries(fields).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => [k, formText(one)] as [string, string]));
    const files = path === '/api/upload' ? [{ field: 'video', filename: r.pick(['v.mp4', 'v\u0000.mp4', 'v.mov']), type: r.pick(['video/mp4', 'video/mp4\u0000', 'application/octet-stream']), data: Buffer.alloc(2000, 7) }]
      : path === '/api/upload_photos' ? [{ field: 'photos[]', filename: r.pick(['p.png', 'p\u0001.png', 'p.jpg']), type: r.pick(['image/png', 'image/jpeg', 'image/png\u0000']), data: Buffer.alloc(1000 + r.int(1000), 9) }] : [];
    const { body: b, contentType } = multipart(pairs, files);
    return { body: [b], headers: { 'Content-Type': contentType } };
  }
  return { body: JSON.stringify(fields), headers: { 'Content-Type': 'application/json' } };
}

/** A body with its headers, drawn from every kind the API may be sent. */
function body(r: Rng, method: string, path: string): Pick<RawRequest, 'body' | 'headers'> {
  const json = (text: string, extra: Record<string, string> = {}) => ({ body: text, headers: { 'Content-Type': 'application/json', ...extra } });
  if (r.chance(0.35)) return validBody(r, method, path);
  switch (r.int(16)) {
    case 0: return {};
    case 1: case 2: case 3: return json(JSON.stringify(nastyObject(r)));
    case 4: return json(JSON.stringify(nastyValue(r)));
    case 5: { const text = JSON.stringify(nastyObject(r)); return json(text.slice(0, r.int(text.length))); }
    case 6: return json(r.pick(['{', '{"a":', '[1,2', 'nul', '{"__proto__":{"x":1}}', '\u0000', '{"a":"\\ud800"}', '{"a":1}{"b":2}']));
    case 7: return { body: urlencoded(r), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
    case 8: case 9: { const { body: b, contentType } = multipartBody(r); return { body: [b], headers: { 'Content-Type': contentType } }; }
    case 10: { const { body: b, contentType } = multipartBody(r); return { body: [b.subarray(0, r.int(b.length))], headers: { 'Content-Type': contentType } }; }
    case 11: {
      const { body: b, contentType } = multipartBody(r);
      const broken = r.pick([
        () => ({ body: b, type: 'multipart/form-data' }),
        () => ({ body: b, type: 'multipart/form-data; boundary=other' }),
        () => ({ body: Buffer.from('--b\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--b--\r\n'), type: 'multipart/form-data; boundary=b' }),
        () => ({ body: Buffer.from('--b\r\nBroken header line\r\n\r\nvalue\r\n--b--\r\n'), type: 'multipart/form-data; boundary=b' }),
        () => ({ body: Buffer.from('--b\r\nContent-Disposition: form-data; name="user"\r\nContent-Transfer-Encoding: rot13\r\n\r\nalice\r\n--b--\r\n'), type: 'multipart/form-data; boundary=b' }),
        () => ({ body: Buffer.from('--b\r\nContent-Disposition: form-data; name="video"; filename="a.mp4"\r\nContent-Type: video/mp4\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!notbase64\r\n--b--\r\n'), type: 'multipart/form-data; boundary=b' }),
        () => ({ body: Buffer.from('garbage with no boundary at all'), type: 'multipart/mixed; boundary=zz' }),
        () => ({ body: b, type: contentType.replace('form-data', 'related') }),
      ])();
      return { body: [broken.body], headers: { 'Content-Type': broken.type } };
    }
    case 12: return { body: JSON.stringify(nastyObject(r)), headers: { 'Content-Type': r.pick(['text/plain', 'application/xml', 'foo', 'application/json; charset=latin1', 'application/vnd.api+json', 'image/png']) } };
    case 13: return { body: JSON.stringify(nastyObject(r)) };
    case 14: {
      const text = JSON.stringify(nastyObject(r));
      return r.pick([
        () => json('', { 'Content-Encoding': 'gzip' }),
        () => ({ body: gzipSync(text), headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } }),
        () => json(text, { 'Content-Encoding': r.pick(['gzip', 'deflate', 'br', 'compress', 'identity, gzip']) }),
      ])();
    }
    default: return r.chance(0.2) ? json(JSON.stringify({ username: 'x'.repeat(1_100_000) })) : json(JSON.stringify(nastyObject(r)));
  }
}

/** Percent-encoding; a lone surrogate (which encodeURIComponent refuses) goes as its raw UTF-8 bytes. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};

/** A header value Node's client will send (no control characters but tab). */
const headerSafe = (s: string) => s.replace(/[^\t\x20-\x7e]/g, '?');

function query(r: Rng): string {
  if (r.chance(0.4)) return '';
  const pairs = Array.from({ length: 1 + r.int(4) }, () => {
    const key = r.chance(0.9) ? r.pick(FIELDS) : r.pick(['a[b]', 'platform[]', '%00', '']);
    const value = nastyString(r);
    return `${enc(key)}=${r.chance(0.9) ? enc(value) : r.pick(['%', '%zz', '%E0%A4%A', '%00'])}`;
  });
  return `?${pairs.join('&')}`;
}

function pathFor(r: Rng, template: string): string {
  return template.replace(/:(\w+)/g, (_, name: string) => {
    if (name === 'platform') return enc(r.pick([...PLATFORM_WORDS, 'bluesky', 'instagram', nastyString(r)]));
    return r.chance(0.85) ? enc(nastyString(r)) : r.pick(['%', '%zz', '%C0%80', '%00', '..', '%2F']);
  });
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'SEARCH', 'PURGE', 'FOO'];

describe('API fuzz: malformed input never answers 5xx, and errors are JSON with an error_code', () => {
  it(`survives ${COUNT} random malformed requests against every route (seed ${SEED})`, async () => {
    const api = await anApiServer({ maxUploadBytes: 256 * 1024 });
    try {
      // Every route the daemon serves, read from its routers, so a new route is fuzzed without editing this test.
      const routes = api.app.middleware
        .flatMap((mw) => ((mw as { router?: Router }).router?.stack ?? []))
        .flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) })));
      routes.push({ method: 'GET', path: '/healthz' }, { method: 'GET', path: `/media/${'ab'.repeat(32)}` }, { method: 'GET', path: '/media/:id' }, { method: 'POST', path: '/api/herald/nope' });
      expect(routes.length).toBeGreaterThan(25);

      const r = prng(SEED);
      const failures: string[] = [];
      const seen = new Map<string, number>();
      for (let i = 0; i < COUNT; i += 1) {
        if (i % 250 === 0) await keepAliceConnected(api);
        const route = r.pick(routes);
        const method = r.chance(0.75) ? route.method : r.pick(METHODS);
        const { body: payload, headers = {} } = body(r, method, route.path);
        const auth = r.next();
        const allHeaders: Record<string, string | string[]> = { ...headers };
        if (auth > 0.95) allHeaders.Authorization = r.pick(['Apikey hk_wrong', 'Bearer x', 'Apikey', '']);
        if (r.chance(0.1)) allHeaders[r.pick(['Idempotency-Key', 'X-Request-Id', 'X-External-Id'])] = headerSafe(nastyString(r)).slice(0, 4000);
        if (r.chance(0.01)) allHeaders['X-Padding'] = 'p'.repeat(20_000);
        const req: RawRequest = {
          method, path: `${pathFor(r, route.path)}${query(r)}`, headers: allHeaders, auth: auth > 0.9 && auth <= 0.95 ? false : undefined,
          ...(payload !== undefined ? { body: payload } : {}),
        };
        if (SHOW === i) process.stdout.write(`request #${i}: ${JSON.stringify({ ...req, body: Buffer.concat([req.body ?? []].flat().map((b) => Buffer.from(b))).toString('latin1') })}\n`);
        let res: HttpAnswer;
        try {
          res = await api.send(req);
        } catch (err) {
          failures.push(`#${i} ${method} ${req.path}: no answer (${(err as Error).message})`);
          continue;
        }
        seen.set(String(res.status), (seen.get(String(res.status)) ?? 0) + 1);
        for (const id of [res.json?.job_id, res.json?.request_id]) if (typeof id === 'string' && knownIds.length < 200) knownIds.push(id);
        const problem = judge(req, res);
        if (problem) failures.push(`#${i} ${method} ${req.path.slice(0, 200)} [${JSON.stringify(headers).slice(0, 200)}] -> ${res.status} ${problem}: ${res.text.slice(0, 300)}`);
      }
      const unhandled = api.logged.filter((l) => l.message === 'unhandled error').map((l) => JSON.stringify(l.fields).slice(0, 500));
      process.stdout.write(`fuzz seed ${SEED}: ${COUNT} requests over ${routes.length} routes; statuses ${JSON.stringify(Object.fromEntries([...seen].sort()))}\n`);
      expect({ failures: failures.slice(0, 20), count: failures.length, unhandled: unhandled.slice(0, 5) }).toEqual({ failures: [], count: 0, unhandled: [] });
    } finally {
      await api.close();
    }
  });
});

/** What is wrong with an answer, or null. */
function judge(req: RawRequest, res: HttpAnswer): string | null {
  // The spec's one 5xx for a request: anything reddit (a HEAD answer shows no body to tell).
  if (res.status === 503 && (res.json?.error_code === 'reddit_unavailable' || (req.method === 'HEAD' && /reddit/i.test(req.path)))) return null;
  if (res.status >= 500) return '5xx';
  if (res.status < 400) return null;
  // The OAuth callback answers the end user's browser with a page when it knows no redirect_url.
  if (/\/oauth\/[^/]+\/callback/.test(req.path) && String(res.headers['content-type']).startsWith('text/html') && res.status === 400) return null;
  if (!String(res.headers['content-type']).startsWith('application/json')) return `not JSON (${res.headers['content-type']})`;
  if (req.method === 'HEAD') return null;
  const b = res.json as { success?: unknown; error_code?: unknown; message?: unknown } | undefined;
  if (!b || b.success !== false) return 'no success:false';
  if (typeof b.error_code !== 'string' || !b.error_code) return 'no error_code';
  if (typeof b.message !== 'string' || !b.message) return 'no message';
  return null;
}

/** A DELETE /users may have removed the fixture profile: put it back so requests keep reaching deep. */
async function keepAliceConnected(api: Awaited<ReturnType<typeof anApiServer>>): Promise<void> {
  const { deps } = api.world;
  if (!(await deps.storage.profiles.find(api.account.id, 'alice'))) await createProfile(deps, api.account, { username: 'alice' });
  const connected = await deps.storage.connectedAccounts.listByProfile(api.account.id, 'alice');
  if (!connected.some((c) => c.platform === 'discord' && c.status !== 'disconnected')) {
    await connectWithCredentials(deps, api.account, 'discord', { profile_username: 'alice', secret: 'good' });
  }
}
