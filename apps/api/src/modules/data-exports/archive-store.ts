import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where export archives live: a store of their own, not the uploads' one. The uploads' storage
 * takes a file whole (`put(bytes)`) and `/uploads/<key>` serves every key of it to anyone; an
 * archive is written as it is built (it can hold hundreds of megabytes of uploads and activities)
 * and is served only to its requester. So the archives sit in their own directory
 * (DATA_DIR/exports), named `<uuid>.zip`, and nothing serves that directory: the only ways out
 * are the two download routes of this module, which check who asks.
 */
export interface ArchiveStore {
  /**
   * Writes an archive under `key` from the chunks `produce` hands to `write` (each awaited, so a
   * slow disk holds the producer back). Nothing appears under the key until it is complete; a
   * producer that throws leaves nothing behind. Resolves with the archive's size in bytes.
   */
  create(
    key: string,
    produce: (write: (chunk: Uint8Array) => Promise<void>) => Promise<void>,
  ): Promise<number>;
  /** The archive as a stream with its size, or null when there is none under the key. */
  open(key: string): Promise<{ body: Readable; size: number } | null>;
  delete(key: string): Promise<void>;
  /** The keys stored, each with when it was written (to sweep archives no export names). */
  list(): Promise<{ key: string; writtenAt: Date }[]>;
}

/** `<uuid>.zip`, nothing else: a key can never name a path outside the store. */
export const ARCHIVE_KEY_PATTERN =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.zip$/;

export const newArchiveKey = () => `${crypto.randomUUID()}.zip`;

export function createLocalArchiveStore(dir: string): ArchiveStore {
  const fileOf = (key: string) => {
    if (!ARCHIVE_KEY_PATTERN.test(key)) throw new Error(`invalid archive key: ${key}`);
    return path.join(dir, key);
  };

  return {
    async create(key, produce) {
      const target = fileOf(key);
      await fsp.mkdir(dir, { recursive: true, mode: 0o750 });
      const tmp = `${target}.${crypto.randomBytes(6).toString('hex')}.tmp`;
      const handle = await fsp.open(tmp, 'wx', 0o640);
      let size = 0;
      try {
        await produce(async (chunk) => {
          let offset = 0;
          while (offset < chunk.length) {
            const { bytesWritten } = await handle.write(chunk, offset);
            offset += bytesWritten;
          }
          size += chunk.length;
        });
        await handle.sync();
        await handle.close();
        await fsp.rename(tmp, target);
        return size;
      } catch (err) {
        await handle.close().catch(() => {});
        await fsp.rm(tmp, { force: true });
        throw err;
      }
    },

    async open(key) {
      if (!ARCHIVE_KEY_PATTERN.test(key)) return null;
      let handle: fsp.FileHandle;
      try {
        // Opened first: an archive deleted meanwhile (it expired) still streams to its end.
        handle = await fsp.open(fileOf(key), 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      try {
        const { size } = await handle.stat();
        return { body: handle.createReadStream({ autoClose: true }), size };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    async delete(key) {
      await fsp.rm(fileOf(key), { force: true });
    },

    async list() {
      let names: string[];
      try {
        names = await fsp.readdir(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      const out: { key: string; writtenAt: Date }[] = [];
      for (const name of names.filter((n) => ARCHIVE_KEY_PATTERN.test(n))) {
        const stat = await fsp.stat(path.join(dir, name)).catch(() => null);
        if (stat) out.push({ key: name, writtenAt: stat.mtime });
      }
      return out;
    },
  };
}
