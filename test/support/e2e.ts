import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NETWORKS } from '../../adapters/platforms';
import { resolveSettings } from '../../core/domain/settings';
import { approveAuthorization, startSandbox, type Sandbox } from '../../apps/sandbox/main';
import { apiClient, eventually, freePort, onFreshSocketIfClosed, startStack, type Stack } from './stack';
import { makeVideo, type VideoFile } from './large-video';

/**
 * The one fixture of the e2e tier: `useHerald()` in a describe block starts the real daemons
 * (over the sandbox's simulators when asked), an operator account with an API key and the
 * profiles named, before its tests, and stops all of it after them. The test reads what it checks:
 *
 *   const herald = useHerald({ sandbox: true, profiles: ['nina'] });
 *   it('publishes', async () => {
 *     await herald.connect('bluesky', { profile: 'nina' });
 *     const res = await herald.publish({ user: 'nina', 'platform[]': ['bluesky'], title: 'Hi' });
 *     const done = await herald.waitForCompletion(res.body.request_id);
 *   });
 *
 * Every wait is on state, with generous bounds: CI is a loaded 2-core machine.
 */

export type Env = Record<string, string>;
type Client = ReturnType<typeof apiClient>;
type Answer = Awaited<ReturnType<Client['get']>>;

export interface HeraldOptions {
  /**
   * The daemons' environment on top of the stack's (and the sandbox's). A function is read when the
   * stack starts (after the sandbox, which it is given), and after the file's own beforeAll hooks
   * registered above `useHerald` (a simulator the file starts itself, a port it draws).
   */
  env?: Env | ((started: { sandbox?: Sandbox }) => Env | Promise<Env>);
  /** The sandbox's simulators on random ports, the stack's public base URL their callback address. */
  sandbox?: boolean;
  /** Simulators' media processing time (sandbox only). Default 50 ms. */
  processingMs?: number;
  /** Starts a worker (with this environment on top when an object). Default true. */
  worker?: boolean | Env;
  /** Starts the connect page daemon (apps/web). */
  web?: boolean;
  /** Starts the MCP daemon (apps/mcp). */
  mcp?: boolean;
  /** The operator account whose API key `api` carries; `false`: none (the file makes its own). */
  account?: { email?: string; plan?: string } | false;
  /** Profiles created (201) once the account is there. */
  profiles?: readonly string[];
  /** HERALD_NAMESPACE (the `/api/<namespace>/` segment); the fixture's own calls use it. Default `herald`. */
  namespace?: string;
}

export interface ConnectOptions {
  profile: string;
  /** Credential networks: the body to submit; default: the sandbox's values of the network's credential fields. */
  credentials?: Record<string, unknown>;
  /** OAuth networks: where Herald sends the browser back. */
  redirectUrl?: string;
  /** The client connecting (another account's key); default the fixture's. */
  as?: Client;
}

export interface Connected {
  network: string;
  kind: 'oauth' | 'credentials';
  /** OAuth: Herald's answer to `/oauth/<net>/start`. Credentials: its answer to `/users/<net>/credentials`. */
  answer: Answer;
  /** OAuth: where the network sent the browser (Herald's callback) and where Herald sent it then. */
  callback?: URL;
  back?: URL;
}

/** Fields of an upload: a value that is an array is sent as repeated fields in a form. */
export type UploadFields = Record<string, string | number | boolean | readonly string[] | undefined>;
/** Files of an upload: a path, or `{ file, type, name }` (the content type sent; default from the extension). */
export type UploadFile = string | { file: string; type?: string; name?: string } | { bytes: Buffer; type?: string; name: string };
export interface UploadMedia {
  video?: UploadFile;
  photos?: readonly UploadFile[];
  /** Any other file part, by field name. */
  files?: Record<string, UploadFile | readonly UploadFile[]>;
  headers?: Record<string, string>;
}

const DESCRIPTORS = new Map<string, (typeof NETWORKS)[number]['descriptor']>(NETWORKS.map((n) => [n.id, n.descriptor]));

/**
 * The sandbox's value of a network's credential field: `SANDBOX_<NETWORK>_<FIELD>`, or for a list
 * field the variable of its one item (listmonk's `list_ids` from `SANDBOX_LISTMONK_LIST_ID`).
 */
function sandboxValue(env: Env, network: string, field: { name: string; type: string }): string | undefined {
  const names = [field.name, ...(field.type === 'string_list' && field.name.endsWith('s') ? [field.name.slice(0, -1)] : [])];
  return names.map((name) => env[`SANDBOX_${network}_${name}`.toUpperCase()]).find((v) => v !== undefined);
}

const TYPES: Record<string, string> = { '.mp4': 'video/mp4', '.mov': 'video/quicktime', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.gif': 'image/gif', '.webp': 'image/webp', '.pdf': 'application/pdf' };

function filePart(f: UploadFile): { blob: Blob; name: string } {
  if (typeof f === 'string') return { blob: new Blob([readFileSync(f)], { type: TYPES[path.extname(f).toLowerCase()] ?? 'application/octet-stream' }), name: path.basename(f) };
  if ('bytes' in f) return { blob: new Blob([f.bytes], { type: f.type ?? TYPES[path.extname(f.name).toLowerCase()] ?? 'application/octet-stream' }), name: f.name };
  return { blob: new Blob([readFileSync(f.file)], { type: f.type ?? TYPES[path.extname(f.file).toLowerCase()] ?? 'application/octet-stream' }), name: f.name ?? path.basename(f.file) };
}

/** A multipart form of `fields` (arrays as repeated fields) and `files` (by field name). */
export function formOf(fields: UploadFields, files: Record<string, UploadFile | readonly UploadFile[]> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) form.append(k, String(item));
  }
  for (const [k, v] of Object.entries(files)) {
    for (const f of (Array.isArray(v) ? v : [v]) as UploadFile[]) {
      const { blob, name } = filePart(f);
      form.append(k, blob, name);
    }
  }
  return form;
}

export interface Herald {
  /** The stack (daemons, CLI, env) and the sandbox: usable once useHerald's beforeAll ran, so a file may destructure them at the top. */
  readonly stack: Stack;
  readonly sandbox: Sandbox;
  /** The API client with the account's key (same). */
  readonly api: Client;
  readonly key: string;
  readonly apiUrl: string;
  /** An API client with another key. */
  client(key: string): Client;
  /** Runs `fn` after the tests, before the daemons stop and the database is dropped (afterAll hooks declared after useHerald run after that). */
  beforeStop(fn: () => unknown): void;
  /**
   * Another API daemon over the same database and infrastructure, on a port of its own, with `env`
   * on top of the stack's (a shorter link lifetime, say); stopped before the stack.
   */
  startApi(env: Env): Promise<Stack>;
  /** Connects `network` for a profile by its descriptor's connect kind: OAuth through the simulator's consent page, or credentials. */
  connect(network: string, opts: ConnectOptions): Promise<Connected>;
  /** The sandbox's values of a credential network's fields: the longest leading set of the fields its schema accepts. */
  credentialsOf(network: string): Record<string, string>;
  /**
   * Sends an upload: JSON to /api/upload_text without media; a form to /api/upload with `video`,
   * to /api/upload_photos with `photos`. Answers status, headers and body.
   */
  publish(fields: UploadFields, media?: UploadMedia): Promise<Answer>;
  /** POSTs a multipart form (with the account's key) to `path` (`/api/...`). */
  postForm(path: string, fields: UploadFields, files?: Record<string, UploadFile | readonly UploadFile[]>, headers?: Record<string, string>): Promise<Answer>;
  /** Polls the upload's status until `until` (default: finished, that is completed or cancelled); fails after `timeoutMs` (default 180 s). */
  waitForCompletion(requestId: string, opts?: { until?: (body: any) => boolean; timeoutMs?: number }): Promise<Answer>;
  /** `publish`, then the upload's completed status (a synchronous answer already is). */
  publishAndWait(fields: UploadFields, media?: UploadMedia): Promise<Answer>;
}

/** An object that is `get()` once that is there: what the fixture hands out before its beforeAll ran. */
function late<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get: (_, prop) => Reflect.get(get(), prop),
    set: (_, prop, value) => Reflect.set(get(), prop, value),
    has: (_, prop) => Reflect.has(get(), prop),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_, prop) => {
      const d = Reflect.getOwnPropertyDescriptor(get(), prop);
      return d ? { ...d, configurable: true } : undefined;
    },
  });
}

/** Registers beforeAll/afterAll in the calling describe block; the returned object is usable inside its tests and hooks. */
export function useHerald(opts: HeraldOptions = {}): Herald {
  const ns = opts.namespace ?? 'herald';
  const nsEnv: Env = opts.namespace ? { HERALD_NAMESPACE: opts.namespace } : {};
  let stack: Stack | undefined;
  let sandbox: Sandbox | undefined;
  let key: string | undefined;
  let api: Client | undefined;
  const beforeStop: Array<() => unknown> = [];
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`herald.${what} is not there: use it in a test or a hook after useHerald's beforeAll`);
    return value;
  };

  beforeAll(async () => {
    const fixed = typeof opts.env === 'function' ? {} : opts.env ?? {};
    if (opts.sandbox) {
      const port = fixed.HERALD_API_PORT ? Number(fixed.HERALD_API_PORT) : await freePort();
      const base = fixed.HERALD_PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}`;
      sandbox = await startSandbox({ ports: 'random', heraldPublicBaseUrl: base, namespace: ns, processingMs: opts.processingMs ?? 50 });
      const extra = typeof opts.env === 'function' ? await opts.env({ sandbox }) : fixed;
      stack = await startStack({ ...sandbox.env, HERALD_API_PORT: String(port), HERALD_PUBLIC_BASE_URL: base, ...nsEnv, ...extra });
    } else {
      stack = await startStack({ ...nsEnv, ...(typeof opts.env === 'function' ? await opts.env({}) : fixed) });
    }
    if (opts.worker !== false) await stack.startWorker(typeof opts.worker === 'object' ? opts.worker : {});
    if (opts.web) await stack.startWeb();
    if (opts.mcp) await stack.startMcp();
    if (opts.account !== false) {
      const email = opts.account?.email ?? `e2e-${path.basename(expect.getState().testPath ?? 'test', '.test.ts')}@herald.dev`;
      key = await stack.newApiKey(email, opts.account?.plan);
      api = apiClient(stack.apiUrl, key);
      for (const username of opts.profiles ?? []) {
        const created = await api.post(`/api/${ns}/users`, { username });
        if (created.status !== 201) throw new Error(`profile ${username}: ${created.status} ${JSON.stringify(created.body)}`);
      }
    }
  }, 300_000);

  afterAll(async () => {
    for (const fn of beforeStop.reverse()) await fn();
    await stack?.stop();
    await sandbox?.close();
  }, 120_000);

  const lateApi: Client = {
    get: (...a) => need(api, 'api').get(...a),
    post: (...a) => need(api, 'api').post(...a),
    delete: (...a) => need(api, 'api').delete(...a),
    patch: (...a) => need(api, 'api').patch(...a),
  };
  const lateStack = late(() => need(stack, 'stack'));
  const lateSandbox = late(() => need(sandbox, 'sandbox (useHerald({ sandbox: true }))'));
  const herald: Herald = {
    stack: lateStack,
    sandbox: lateSandbox,
    api: lateApi,
    get key() { return need(key, 'key'); },
    get apiUrl() { return herald.stack.apiUrl; },
    client: (other) => apiClient(herald.stack.apiUrl, other),
    beforeStop: (fn) => { beforeStop.push(fn); },
    async startApi(env) {
      const other = await startStack({ ...herald.stack.env, HERALD_API_PORT: String(await freePort()), ...env });
      beforeStop.push(() => other.stop());
      return other;
    },

    credentialsOf(network) {
      const schema = DESCRIPTORS.get(network)?.credentialFields;
      if (!schema) throw new Error(`${network} has no credential fields (its connect kind is ${DESCRIPTORS.get(network)?.connect ?? 'unknown'})`);
      const env = herald.sandbox.env;
      const present = schema.fields.flatMap((f) => {
        const value = sandboxValue(env, network, f);
        return value === undefined ? [] : [[f.name, value] as const];
      });
      // Some networks take one of several sets (Slack: a bot token with a channel, or a webhook):
      // the longest leading run of the fields the sandbox has that the schema accepts.
      for (let n = present.length; n > 0; n -= 1) {
        const values = Object.fromEntries(present.slice(0, n));
        if (resolveSettings(network, schema, values, { endpoint: 'text', mediaCount: 0 }).violations.length === 0) return values;
      }
      throw new Error(`the sandbox has no accepted set of ${network}'s credential fields (${schema.fields.map((f) => f.name).join(', ')})`);
    },

    async connect(network, { profile, credentials, redirectUrl = 'https://integrator.example/connected', as = herald.api }) {
      const descriptor = DESCRIPTORS.get(network);
      if (!descriptor) throw new Error(`unknown network ${network}`);
      if (descriptor.connect === 'oauth') {
        const start = await as.post(`/api/${ns}/oauth/${network}/start`, { profile_username: profile, redirect_url: redirectUrl });
        if (start.status !== 200 || typeof start.body.authorize_url !== 'string') throw new Error(`${network} oauth start: ${start.status} ${JSON.stringify(start.body)}`);
        const callback = await approveAuthorization(start.body.authorize_url);
        const res = await fetch(callback, { redirect: 'manual' });
        const location = res.headers.get('location');
        if (res.status !== 302 || !location) throw new Error(`${network} oauth callback answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
        const back = new URL(location);
        if (back.searchParams.get('connect_status') !== 'success') throw new Error(`${network} not connected: ${back.search}`);
        return { network, kind: 'oauth', answer: start, callback, back };
      }
      const body = credentials ?? herald.credentialsOf(network);
      const answer = await as.post(`/api/${ns}/users/${network}/credentials`, { profile_username: profile, ...body });
      if (answer.status !== 200 || answer.body.success !== true) throw new Error(`${network} credentials: ${answer.status} ${JSON.stringify(answer.body)}`);
      return { network, kind: 'credentials', answer };
    },

    async postForm(p, fields, files = {}, headers = {}) {
      const res = await onFreshSocketIfClosed(() => fetch(`${herald.apiUrl}${p}`, {
        method: 'POST', headers: { Authorization: `Apikey ${herald.key}`, ...headers }, body: formOf(fields, files), signal: AbortSignal.timeout(240_000),
      }));
      const text = await res.text();
      let body: any;
      try { body = JSON.parse(text); } catch { body = { raw: text }; }
      return { status: res.status, headers: res.headers, body };
    },

    publish(fields, media = {}) {
      const files: Record<string, UploadFile | readonly UploadFile[]> = { ...media.files };
      if (media.video) files.video = media.video;
      if (media.photos) files['photos[]'] = media.photos;
      if (Object.keys(files).length === 0) return herald.api.post('/api/upload_text', fields, media.headers);
      return herald.postForm(media.video ? '/api/upload' : media.photos ? '/api/upload_photos' : '/api/upload', fields, files, media.headers);
    },

    waitForCompletion(requestId, { until = (b: any) => b.status === 'completed' || b.status === 'cancelled', timeoutMs = 180_000 } = {}) {
      return eventually(() => herald.api.get(`/api/${ns}/status?request_id=${encodeURIComponent(requestId)}`), (r) => until(r.body), timeoutMs, 500);
    },

    async publishAndWait(fields, media) {
      const res = await herald.publish(fields, media);
      if (res.status !== 200 && res.status !== 202) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.status === 'completed' ? res : herald.waitForCompletion(res.body.request_id);
    },
  };
  return herald;
}

// ---------------------------------------------------------------------------------------------
// Test media: made with ffmpeg's lavfi sources, once per content in one temp dir (shared by the
// files of a run and the runs after it: a file's name is the hash of the ffmpeg arguments).

const MEDIA_DIR = path.join(os.tmpdir(), `herald-e2e-media-${os.userInfo().uid}`);

function made(ext: string, args: string[]): string {
  mkdirSync(MEDIA_DIR, { recursive: true });
  const file = path.join(MEDIA_DIR, `${createHash('sha256').update(args.join('\0')).digest('hex').slice(0, 16)}.${ext}`);
  if (existsSync(file)) return file;
  const tmp = `${file}.${process.pid}.tmp.${ext}`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, tmp]);
  renameSync(tmp, file); // whole or not at all: another file of the run may be reading it
  return file;
}

export interface ClipOptions {
  seconds?: number;
  /** WxH. Default 720x1280 (portrait, what every video network takes). */
  size?: string;
  rate?: number;
  /** An AAC 440 Hz tone beside the video. Default true. */
  audio?: boolean;
  /** The picture: ffmpeg's test pattern (default), or one colour (`color: 'black'`). */
  color?: string;
  /** H.264 encoder preset; default libx264's. */
  preset?: 'ultrafast';
}

export interface ImageOptions {
  /** WxH. Default 1080x1350. */
  size?: string;
  /** One colour (`0x336699`, `red`); otherwise `pattern`. */
  color?: string;
  /** The lavfi source when no colour: testsrc (default), testsrc2 (`frame`: its duration, so pictures differ by name), or noise (incompressible). */
  pattern?: 'testsrc' | 'testsrc2' | 'noise';
  frame?: number;
  format?: 'jpg' | 'png';
}

export const media = {
  /** An H.264 MP4 (yuv420p). Default: 5 s, 720x1280, 30 fps, with audio. */
  clip({ seconds = 5, size = '720x1280', rate = 30, audio = true, color, preset }: ClipOptions = {}): string {
    const video = color ? `color=c=${color}:size=${size}:rate=${rate}:duration=${seconds}` : `testsrc=size=${size}:rate=${rate}:duration=${seconds}`;
    return made('mp4', [
      '-f', 'lavfi', '-i', video, ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
      '-c:v', 'libx264', '-pix_fmt', 'yuv420p', ...(preset ? ['-preset', preset] : []), ...(audio ? ['-c:a', 'aac', '-shortest'] : []),
    ]);
  },
  /** One still picture. Default: testsrc 1080x1350 JPEG. */
  image({ size = '1080x1350', color, pattern = 'testsrc', frame = 1, format = 'jpg' }: ImageOptions = {}): string {
    const source = color ? `color=c=${color}:size=${size}`
      : pattern === 'noise' ? `nullsrc=s=${size},geq=random(1)*255:random(1)*255:random(1)*255`
        : pattern === 'testsrc2' ? `testsrc2=size=${size}:rate=1:duration=${frame}`
          : `testsrc=size=${size}`;
    return made(format, ['-f', 'lavfi', '-i', source, '-frames:v', '1']);
  },
  /** `count` distinct plain-colour pictures (0x336699, then each 0x111111 lighter). */
  images(count: number, { size = '1080x1350', format = 'jpg' }: Pick<ImageOptions, 'size' | 'format'> = {}): string[] {
    return Array.from({ length: count }, (_, i) => media.image({ size, format, color: `0x${(0x336699 + i * 0x111111).toString(16)}` }));
  },
  /** The bytes of a media file. */
  bytes: (file: string): Buffer => readFileSync(file),
  /** A frame of a video or a picture as raw pixels (`rgb24` or `gray`), optionally a crop `w:h:x:y` of it. */
  pixels(file: string, { crop, format = 'rgb24' }: { crop?: string; format?: 'rgb24' | 'gray' } = {}): Buffer {
    return execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-frames:v', '1', ...(crop ? ['-vf', `crop=${crop}`] : []), '-f', 'rawvideo', '-pix_fmt', format, '-']);
  },
  /** A video of about `bytes` (test/support/large-video.ts), removed when the test process exits (it is large). */
  large(bytes: number, say?: (line: string) => void): VideoFile & { file: string } {
    const file = path.join(os.tmpdir(), `herald-e2e-large-${process.pid}.mp4`);
    process.once('exit', () => rmSync(file, { force: true }));
    return { ...makeVideo(file, bytes, say), file };
  },
};
