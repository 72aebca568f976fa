import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createLocalMediaStore } from '../../adapters/media/local-store';

/** Issue 26, finding 3: what ops and the daemons write under .herald/ is owner-only whatever the umask. */
const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);
const LIB = path.join(__dirname, '../../ops/lib.sh');

describe('owner-only state, logs and media', () => {
  let dir: string;
  let umask: number;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'herald-modes-'));
    umask = process.umask(0o022); // a usual login umask: files 0644, directories 0755
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  /** ops/lib.sh sourced from a copy in `dir`: HERALD_ROOT is the copy's parent. */
  function sourceLib(script: string): string {
    mkdirSync(path.join(dir, 'ops'), { recursive: true });
    copyFileSync(LIB, path.join(dir, 'ops/lib.sh'));
    const env = { ...process.env };
    delete env.HERALD_SECRET_KEY;
    return execFileSync('bash', ['-c', `. "$0"; ${script}`, path.join(dir, 'ops/lib.sh')], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  it('ops/lib.sh: .herald, logs and run are 0700, the secret key 0600, and what is created after sourcing is owner-only', () => {
    sourceLib('ensure_secret_key; echo started >"$LOG_DIR/api.log"; mkdir "$STATE_DIR/media"; echo x >"$RUN_DIR/api.pid"');
    const state = path.join(dir, '.herald');
    expect([modeOf(state), modeOf(path.join(state, 'logs')), modeOf(path.join(state, 'run'))]).toEqual(['700', '700', '700']);
    expect(modeOf(path.join(state, 'secret-key'))).toBe('600');
    expect([modeOf(path.join(state, 'logs/api.log')), modeOf(path.join(state, 'run/api.pid')), modeOf(path.join(state, 'media'))]).toEqual(['600', '600', '700']);
  });

  it('ops/lib.sh closes the state directories and the key file an older release left world-readable', () => {
    const state = path.join(dir, '.herald');
    mkdirSync(path.join(state, 'logs'), { recursive: true, mode: 0o755 });
    chmodSync(state, 0o755);
    writeFileSync(path.join(state, 'secret-key'), `${Buffer.alloc(32, 1).toString('base64')}\n`, { mode: 0o644 });
    const key = sourceLib('ensure_secret_key; printf %s "$HERALD_SECRET_KEY"');
    expect(key).toBe(Buffer.alloc(32, 1).toString('base64'));
    expect([modeOf(state), modeOf(path.join(state, 'logs')), modeOf(path.join(state, 'secret-key'))]).toEqual(['700', '700', '600']);
  });

  it('the media store writes 0700 directories and 0600 files, also for a file moved in, and closes an older root', async () => {
    const root = path.join(dir, 'media');
    mkdirSync(root, { mode: 0o755 });
    const store = createLocalMediaStore(root);
    const put = await store.put(Readable.from([Buffer.from('bytes of a video')]), { contentType: 'video/mp4' });
    const outside = path.join(dir, 'upload.tmp');
    writeFileSync(outside, 'an uploaded file', { mode: 0o644 });
    const moved = await store.putFile(outside, { contentType: 'image/png' });
    expect(modeOf(root)).toBe('700');
    expect(modeOf(store.stagingDir)).toBe('700');
    for (const id of [put.id, moved.id]) {
      expect(modeOf(path.dirname(store.pathOf(id)))).toBe('700');
      expect([modeOf(store.pathOf(id)), modeOf(`${store.pathOf(id)}.json`)]).toEqual(['600', '600']);
    }
    // The daemon that owns the store still reads its files.
    expect(await readFile(store.pathOf(moved.id), 'utf8')).toBe('an uploaded file');
    expect(await store.stat(put.id)).toMatchObject({ contentType: 'video/mp4' });
  });
});
