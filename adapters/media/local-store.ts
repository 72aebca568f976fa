import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { MediaTooLargeError, type MediaStore, type StoredMedia } from '../../core/ports/media';

/**
 * Content-addressed media on local disk: `<root>/<2 hex>/<sha256>` plus a `.json` sidecar with
 * the content type. Bytes stream through a hash into a temporary file and are renamed into place,
 * so memory stays flat whatever the size and a crash never leaves a half file under a real id.
 */
export function createLocalMediaStore(root: string): MediaStore & { pathOf(id: string): string } {
  const pathOf = (id: string) => {
    if (!/^[0-9a-f]{64}$/.test(id)) throw new Error(`not a media id: ${id}`);
    return path.join(root, id.slice(0, 2), id);
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
    async put(source, meta) {
      await mkdir(path.join(root, 'tmp'), { recursive: true });
      const tmp = path.join(root, 'tmp', randomBytes(8).toString('hex'));
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
      const stored: StoredMedia = { id: hash.digest('hex'), size, contentType: meta.contentType };
      const final = pathOf(stored.id);
      await mkdir(path.dirname(final), { recursive: true });
      await rename(tmp, final);
      await writeFile(`${final}.json`, JSON.stringify(stored));
      return stored;
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
