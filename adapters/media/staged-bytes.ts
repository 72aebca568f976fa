import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import path from 'node:path';
import type { MediaStore } from '../../core/ports/media';
import { SNIFF_BYTES, StagedOverflowError, type StagedBytes } from '../../core/ports/media-uploads';
import { STORE_DIR_MODE, STORE_FILE_MODE } from './local-store';
import { sniffContentType } from './sniff';

/**
 * Staged upload bytes on local disk: `<dir>/<id>.part` (with `<id>.lock` while a PUT writes it).
 * `dir` is inside the media store's staging directory, so completing an upload renames the file
 * into the store. The file's size is the received offset: nothing else needs to be written per
 * chunk, and a crash leaves exactly the bytes that reached the disk.
 *
 * The SHA-256 of the bytes so far is kept in memory between the chunks of an upload this process
 * wrote; a chunk arriving at another process (or after a restart) first reads the file's bytes
 * once to catch up.
 */
export function createStagedBytes(opts: { dir: string; store: MediaStore }): StagedBytes {
  const partOf = (id: string) => {
    if (!/^[A-Za-z0-9_-]{1,80}$/.test(id)) throw new Error(`not an upload id: ${id}`);
    return path.join(opts.dir, `${id}.part`);
  };
  const lockOf = (id: string) => `${partOf(id).slice(0, -'.part'.length)}.lock`;
  /** Hash state of the bytes 0..at of uploads this process wrote. */
  const hashes = new Map<string, { hash: Hash; at: number }>();
  /** Digests of whole files this process wrote, by upload id and size. */
  const digests = new Map<string, { sha256: string; size: number }>();
  const sizeOf = (file: string) => stat(file).then((s) => s.size, (err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return 0;
    throw err;
  });

  async function hashUpTo(id: string, offset: number): Promise<Hash> {
    const kept = hashes.get(id);
    hashes.delete(id);
    if (kept && kept.at === offset) return kept.hash;
    const hash = createHash('sha256');
    if (offset > 0) for await (const chunk of createReadStream(partOf(id), { start: 0, end: offset - 1, highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
    return hash;
  }

  async function headOf(id: string, bytes: number): Promise<Buffer> {
    if (bytes <= 0) return Buffer.alloc(0);
    const fh = await open(partOf(id), 'r');
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await fh.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  return {
    received: (id) => sizeOf(partOf(id)),

    async lock(id) {
      await mkdir(opts.dir, { recursive: true, mode: STORE_DIR_MODE });
      const file = lockOf(id);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        try {
          await writeFile(file, String(process.pid), { flag: 'wx', mode: STORE_FILE_MODE });
          return async () => { await rm(file, { force: true }); };
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
          // A lock whose process is gone (a crash mid-PUT) is taken over.
          const pid = Number(await readFile(file, 'utf8').catch(() => ''));
          if (pid && alive(pid)) return null;
          await rm(file, { force: true });
        }
      }
      return null;
    },

    async write(id, source, { offset, limit, total, checkHead }) {
      await mkdir(opts.dir, { recursive: true, mode: STORE_DIR_MODE });
      const file = partOf(id);
      digests.delete(id);
      const hash = await hashUpTo(id, offset);
      // The first bytes, for the sniffer: what is on disk already, then what arrives.
      let head: Buffer | undefined = offset < SNIFF_BYTES && checkHead ? await headOf(id, offset) : undefined;
      const wantHead = Math.min(SNIFF_BYTES, total);
      // A write stream (buffered, gathered writes) keeps pace with the network; fsync'd below.
      const out = createWriteStream(file, { flags: offset === 0 ? 'w' : 'r+', start: offset, mode: STORE_FILE_MODE, highWaterMark: 1 << 20 });
      const written = finished(out);
      written.catch(() => undefined);
      let at = offset;
      let aborted = false;
      try {
        try {
          // Not `for await`: leaving it on a refusal would destroy the request, and its answer with it.
          const chunks = source[Symbol.asyncIterator]();
          for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
            const chunk = next.value as Buffer;
            // More than was announced: refused at once, before any byte of it is written.
            if (at + chunk.byteLength > limit) throw new StagedOverflowError(at);
            if (head && head.length < wantHead) {
              head = Buffer.concat([head, chunk.subarray(0, wantHead - head.length)]);
              if (head.length >= wantHead) {
                checkHead!(sniffContentType(head));
                head = undefined;
              }
            }
            hash.update(chunk);
            at += chunk.byteLength;
            // Back-pressure: the request is read no faster than the disk takes it.
            if (!out.write(chunk)) await Promise.race([once(out, 'drain'), written]);
          }
        } catch (err) {
          if (err instanceof StagedOverflowError || !isSourceFailure(err)) throw err;
          aborted = true;
        }
      } finally {
        out.end();
        await written;
        // On disk before the answer: an interrupted upload resumes from bytes that are really there.
        const fh = await open(file, 'r+');
        try {
          await fh.truncate(at);
          await fh.sync();
        } finally {
          await fh.close();
        }
      }
      if (at === total) {
        const sha256 = hash.digest('hex');
        digests.set(id, { sha256, size: at });
        return { received: at, aborted, sha256 };
      }
      hashes.set(id, { hash, at });
      return { received: at, aborted };
    },

    async sniff(id) {
      return sniffContentType(await headOf(id, SNIFF_BYTES).catch(() => Buffer.alloc(0)));
    },

    async sha256(id) {
      const file = partOf(id);
      const size = await sizeOf(file);
      const known = digests.get(id);
      if (known && known.size === size) return known.sha256;
      return (await hashUpTo(id, size)).digest('hex');
    },

    async commit(id, meta) {
      hashes.delete(id);
      digests.delete(id);
      return opts.store.putFile(partOf(id), meta);
    },

    async remove(id) {
      hashes.delete(id);
      digests.delete(id);
      await rm(partOf(id), { force: true });
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The request stream failing (connection reset, aborted), as opposed to a refusal of ours. */
function isSourceFailure(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (err as Error)?.message === 'aborted';
}
