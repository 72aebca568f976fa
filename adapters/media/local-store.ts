import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
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
 */
export function createLocalMediaStore(root: string): LocalMediaStore {
  const stagingDir = path.join(root, 'tmp');
  const pathOf = (id: string) => {
    if (!/^[0-9a-f]{64}$/.test(id)) throw new Error(`not a media id: ${id}`);
    return path.join(root, id.slice(0, 2), id);
  };
  const stagingFile = async () => {
    await mkdir(stagingDir, { recursive: true });
    return path.join(stagingDir, randomBytes(8).toString('hex'));
  };
  /** Puts a whole file of the store's own file system under its id, then writes the sidecar. */
  const settle = async (tmp: string, stored: StoredMedia): Promise<StoredMedia> => {
    const final = pathOf(stored.id);
    await mkdir(path.dirname(final), { recursive: true });
    await rename(tmp, final);
    await writeFile(`${final}.json`, JSON.stringify(stored));
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
      const out = createWriteStream(tmp);
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
