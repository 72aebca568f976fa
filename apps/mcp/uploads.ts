import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ErrorCode } from '../../core/domain/error-codes';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Upload handles: how an agent hands a large file to a publish tool without pushing it through
 * the protocol as base64. `create_media_upload` answers an id and a single-use upload URL on this
 * daemon; the agent's host PUTs the bytes there (curl -T); a tool's file argument then takes
 * `{upload_id}` and the daemon streams the file into the REST request's multipart body. Files live
 * in a directory of this daemon for `ttlMs` and are usable only by the account that created them.
 */
export interface UploadHandle {
  id: string;
  accountId: string;
  filename: string;
  contentType: string;
  createdAt: string;
  expiresAt: string;
  /** SHA-256 of the upload URL's secret. */
  secretHash: string;
  /** Set once the bytes arrived. */
  size: number | null;
}

export interface UploadHandles {
  create(accountId: string, filename: string, contentType: string): Promise<{ handle: UploadHandle; uploadUrl: string }>;
  /** Stores the bytes of a handle (once); throws UploadRefused with a status. */
  receive(id: string, secret: string, body: Readable): Promise<UploadHandle>;
  /** A handle with bytes, of this account, not expired; with the file's path. */
  find(id: string, accountId: string): Promise<(UploadHandle & { path: string }) | null>;
  sweep(): Promise<number>;
}

export class UploadRefused extends Error {
  constructor(readonly status: number, readonly code: ErrorCode, message: string) {
    super(message);
  }
}

const ID = /^up_[A-Za-z0-9_-]{16,64}$/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function createUploadHandles(opts: { dir: string; ttlMs: number; maxBytes: number; publicBaseUrl: string; now?: () => Date }): UploadHandles {
  const now = opts.now ?? (() => new Date());
  const meta = (id: string) => path.join(opts.dir, `${id}.json`);
  const data = (id: string) => path.join(opts.dir, `${id}.bin`);
  const read = async (id: string): Promise<UploadHandle | null> => {
    if (!ID.test(id)) return null;
    try {
      return JSON.parse(await readFile(meta(id), 'utf8')) as UploadHandle;
    } catch {
      return null;
    }
  };
  const live = (h: UploadHandle) => new Date(h.expiresAt) > now();

  return {
    async create(accountId, filename, contentType) {
      await mkdir(opts.dir, { recursive: true, mode: 0o700 });
      const id = `up_${randomBytes(18).toString('base64url')}`;
      const secret = randomBytes(24).toString('base64url');
      const at = now();
      const handle: UploadHandle = {
        id, accountId, filename: path.basename(filename || 'upload.bin'), contentType: contentType || 'application/octet-stream',
        createdAt: at.toISOString(), expiresAt: new Date(at.getTime() + opts.ttlMs).toISOString(), secretHash: sha256(secret), size: null,
      };
      await writeFile(meta(id), JSON.stringify(handle), { mode: 0o600, flag: 'wx' });
      return { handle, uploadUrl: `${opts.publicBaseUrl}/uploads/${id}?secret=${secret}` };
    },

    async receive(id, secret, body) {
      const handle = await read(id);
      const given = Buffer.from(sha256(secret));
      if (!handle || !live(handle) || !timingSafeEqual(given, Buffer.from(handle.secretHash))) {
        throw new UploadRefused(404, 'upload_not_found', 'No such upload handle, or it expired: create another one.');
      }
      if (handle.size !== null) throw new UploadRefused(409, 'upload_complete', 'This upload handle already has its bytes: create another one.');
      const partial = `${data(id)}.part-${randomBytes(4).toString('hex')}`;
      let size = 0;
      const counter = async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > opts.maxBytes) throw new UploadRefused(413, 'file_too_large', `The file is over the ${opts.maxBytes}-byte limit.`);
          yield chunk;
        }
      };
      try {
        await pipeline(body, counter, createWriteStream(partial, { mode: 0o600 }));
        await rename(partial, data(id));
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
      const done: UploadHandle = { ...handle, size };
      await writeFile(meta(id), JSON.stringify(done), { mode: 0o600 });
      return done;
    },

    async find(id, accountId) {
      const handle = await read(id);
      if (!handle || handle.accountId !== accountId || handle.size === null || !live(handle)) return null;
      return { ...handle, path: data(id) };
    },

    async sweep() {
      let removed = 0;
      let names: string[];
      try {
        names = await readdir(opts.dir);
      } catch {
        return 0;
      }
      for (const name of names.filter((n) => n.endsWith('.json'))) {
        const id = name.slice(0, -'.json'.length);
        const handle = await read(id);
        if (handle && live(handle)) continue;
        await rm(meta(id), { force: true });
        await rm(data(id), { force: true });
        removed += 1;
      }
      return removed;
    },
  };
}
