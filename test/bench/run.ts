/**
 * Benchmark runner: `node dist/test/bench/run.js [name...]` (or `npm run bench -- [name...]`).
 *
 * Runs every `*.bench.js` next to it (or the named ones: `accept`, `drain`, `reads`, `temporal-sqlite`, `fanout`, `large-upload`, `media-job`, `media-library`, `comments`, `webhooks`, `total-impressions`, `staged-upload`), one
 * at a time, each in its own Node process so one bench's memory, sockets and daemons never colour
 * the next one's figures. Infrastructure addresses come from the environment or `.herald/env`.
 * Knobs (all optional) are environment variables documented at the top of each bench file.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadHeraldEnv } from './support';

const SUFFIX = '.bench.js';

async function main(): Promise<number> {
  loadHeraldEnv();
  const available = readdirSync(__dirname).filter((f) => f.endsWith(SUFFIX)).map((f) => f.slice(0, -SUFFIX.length)).sort();
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h') || args.includes('--list')) {
    process.stdout.write(`usage: node dist/test/bench/run.js [name...]\nbenches: ${available.join(', ')}\n`);
    return 0;
  }
  const wanted = args.length ? args.map((a) => a.replace(/\.bench(\.[jt]s)?$/, '')) : available;
  const unknown = wanted.filter((w) => !available.includes(w));
  if (unknown.length) {
    process.stderr.write(`unknown bench ${unknown.join(', ')}; available: ${available.join(', ')}\n`);
    return 2;
  }
  const results: Array<[string, number | null, number]> = [];
  let interrupted = false;
  let current: ReturnType<typeof spawn> | undefined;
  // Ctrl-C reaches the child through the terminal's process group and it stops its own daemons;
  // the runner waits for that, then starts nothing more. SIGTERM is passed on to the child.
  process.on('SIGINT', () => { interrupted = true; });
  process.on('SIGTERM', () => { interrupted = true; current?.kill('SIGTERM'); });
  for (const name of wanted) {
    if (interrupted) break;
    process.stdout.write(`\n######## bench: ${name} ${'#'.repeat(80 - name.length)}\n`);
    const started = Date.now();
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(__dirname, `${name}${SUFFIX}`)], { stdio: 'inherit', env: process.env });
    current = child;
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    results.push([name, code, Date.now() - started]);
  }
  process.stdout.write('\n######## summary\n');
  for (const [name, code, elapsed] of results) {
    process.stdout.write(`${name.padEnd(14)} ${code === 0 ? 'ok    ' : `FAILED (exit ${code})`}  ${(elapsed / 1000).toFixed(1)} s\n`);
  }
  return results.every(([, code]) => code === 0) ? 0 : 1;
}

main().then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
