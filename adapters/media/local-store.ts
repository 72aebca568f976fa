import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { MediaTooLargeError, type MediaStore, type StoredMedia } from '../../core/ports/media';

/** The media store on local disk, with what only a local store has: its files' paths. */
export type LocalMediaStore = MediaStore & {
  /** The file of a stored media id (ffmpeg and ffprobe read it in place). */
  pathOf(id: string): string;
  /**
   * Where the store keeps its temporary files: a file written here (an upload's temporary file)
   * is on the store's own file system, so `putFile` moves it in by renaming.
   */
  stagingDir: string;
};

/**
 * Content-addressed media on local disk: `<root>/<2 hex>/<sha256>` plus a `.json` sidecar with
 * the content type. Bytes stream through a hash into a temporary file and are renamed into place,
 * so memory stays flat whatever the size and a crash never leaves a half file under a real id.
 * A whole file already on disk (`putFile`) is renamed into place, never copied on the same file
 * system, and not read again when its digest is known.
 *
 * Owner-only (docs/security/at-rest.md): directories 0700, files 0600 whatever the process's
 * umask, including files moved in from elsewhere (an upload's temporary file, an ffmpeg output);
 * the root is made 0700 on the first write, so a store of an older release is closed too. The
 * daemon that owns the store reads its files as before.
 */
export const STORE_DIR_MODE = 0o700;
export const STORE_FILE_MODE = 0o600;

/** mkdir -p with owner-only directories. */
const ownerDir = (dir: string) => mkdir(dir, { recursive: true, mode: STORE_DIR_MODE });

export function createLocalMediaStore(root: string): LocalMediaStore {
  const stagingDir = path.join(root, 'tmp');
  const pathOf = (id: string) => {
    if (!/^[0-9a-f]{64}$/.test(id)) throw new Error(`not a media id: ${id}`);
    return path.join(root, id.slice(0, 2), id);
  };
  let rootClosed: Promise<void> | undefined;
  const closeRoot = () => (rootClosed ??= (async () => {
    await ownerDir(root);
    // A root this user does not own (a shared volume) keeps the mode its owner gave it.
    await chmod(root, STORE_DIR_MODE).catch((err: NodeJS.ErrnoException) => { if (err.code !== 'EPERM') throw err; });
  })().catch((err: unknown) => { rootClosed = undefined; throw err; }));
  const stagingFile = async () => {
    await closeRoot();
    await ownerDir(stagingDir);
    return path.join(stagingDir, randomBytes(8).toString('hex'));
  };
  /** Puts a whole file of the store's own file system under its id, then writes the sidecar. */
  const settle = async (tmp: string, stored: StoredMedia): Promise<StoredMedia> => {
    const final = pathOf(stored.id);
    await closeRoot();
    await ownerDir(path.dirname(final));
    await rename(tmp, final);
    await chmod(final, STORE_FILE_MODE);
    await writeFile(`${final}.json`, JSON.stringify(stored), { mode: STORE_FILE_MODE });
    return stored;
  };
  const sha256Of = async (file: string): Promise<string> => {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
    return hash.digest('hex');
  };
  const readMeta = async (id: string): Promise<StoredMedia | null> => {
    try {
      const meta = JSON.parse(await readFile(`${pathOf(id)}.json`, 'utf8')) as StoredMedia;
      return meta;
    } catch {
      return null;
    }
  };

  return {
    pathOf,
    stagingDir,
    async put(source, meta) {
      const tmp = await stagingFile();
      const hash = createHash('sha256');
      const out = createWriteStream(tmp, { mode: STORE_FILE_MODE });
      let size = 0;
      try {
        for await (const chunk of source) {
          size += chunk.byteLength;
          if (meta.maxBytes !== undefined && size > meta.maxBytes) throw new MediaTooLargeError(meta.maxBytes);
          hash.update(chunk);
          // Respect back-pressure: wait for the disk when its buffer is full.
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        out.end();
        await finished(out);
      } catch (err) {
        out.destroy();
        await rm(tmp, { force: true });
        throw err;
      }
      return settle(tmp, { id: hash.digest('hex'), size, contentType: meta.contentType });
    },
    async putFile(file, meta) {
      const { size } = await stat(file);
      if (meta.maxBytes !== undefined && size > meta.maxBytes) throw new MediaTooLargeError(meta.maxBytes);
      const id = meta.sha256?.toLowerCase() ?? await sha256Of(file);
      try {
        return await settle(file, { id, size, contentType: meta.contentType });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      }
      // Another file system: copied into a temporary file of the store first, so a store path
      // only ever holds whole files.
      const tmp = await stagingFile();
      try {
        await copyFile(file, tmp);
        const stored = await settle(tmp, { id, size, contentType: meta.contentType });
        await rm(file, { force: true });
        return stored;
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    async stat(id) {
      const meta = await readMeta(id);
      if (!meta) return null;
      return (await stat(pathOf(id)).then(() => true, () => false)) ? meta : null;
    },
    read(id, range) {
      return createReadStream(pathOf(id), range ? { start: range.start, end: range.end - 1 } : {});
    },
    async delete(id) {
      await rm(pathOf(id), { force: true });
      await rm(`${pathOf(id)}.json`, { force: true });
    },
  };
}
