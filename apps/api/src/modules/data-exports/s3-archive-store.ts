import type { S3Client } from '../../lib/s3/client.ts';
import { ARCHIVE_KEY_PATTERN, type ArchiveStore } from './archive-store.ts';

/** S3 takes every part of a multipart upload but the last at 5 MiB or more. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** 10,000 parts of this (S3's most) make 80 GiB: far above any archive. */
const DEFAULT_PART_BYTES = 8 * 1024 * 1024;

const PREFIX = 'exports/';

/**
 * The archives on an S3-compatible store (STORAGE_URL), under `exports/<key>`, so the instance
 * that built an archive need not be the one that serves it. The size of an archive is not known
 * until it is written, so it goes up as a multipart upload, a part (`partBytes` held in memory)
 * at a time as the zip writer produces it; an archive smaller than one part is a single PUT.
 * Nothing is under the key until the upload completes (S3 makes the object appear whole), and a
 * producer that throws aborts the upload. Like the directory, the bucket is never served: only
 * this module's download routes read it, after their checks.
 */
export function createS3ArchiveStore(
  client: S3Client,
  options: { partBytes?: number } = {},
): ArchiveStore {
  const partBytes = Math.max(MIN_PART_BYTES, options.partBytes ?? DEFAULT_PART_BYTES);
  const objectOf = (key: string) => {
    if (!ARCHIVE_KEY_PATTERN.test(key)) throw new Error(`invalid archive key: ${key}`);
    return `${PREFIX}${key}`;
  };

  return {
    async create(key, produce) {
      const object = objectOf(key);
      // One buffer of a part, filled and sent, then filled again: memory stays at one part.
      const part = Buffer.allocUnsafe(partBytes);
      let filled = 0;
      let size = 0;
      let uploadId: string | null = null;
      const parts: { partNumber: number; etag: string }[] = [];

      const sendPart = async () => {
        uploadId ??= await client.createMultipartUpload(object, 'application/zip');
        const partNumber = parts.length + 1;
        const etag = await client.uploadPart(
          object,
          uploadId,
          partNumber,
          part.subarray(0, filled),
        );
        parts.push({ partNumber, etag });
        filled = 0;
      };

      try {
        await produce(async (chunk) => {
          let offset = 0;
          while (offset < chunk.length) {
            const n = Math.min(chunk.length - offset, partBytes - filled);
            part.set(chunk.subarray(offset, offset + n), filled);
            filled += n;
            offset += n;
            if (filled === partBytes) await sendPart();
          }
          size += chunk.length;
        });
        if (uploadId === null) {
          await client.putObject(object, part.subarray(0, filled), 'application/zip');
        } else {
          if (filled > 0) await sendPart();
          await client.completeMultipartUpload(object, uploadId, parts);
        }
        return size;
      } catch (err) {
        // Best effort: a store that cannot abort (or is down) keeps the parts until its own
        // lifecycle rule removes them; they never appear as an object.
        if (uploadId !== null) await client.abortMultipartUpload(object, uploadId).catch(() => {});
        throw err;
      }
    },

    async open(key) {
      if (!ARCHIVE_KEY_PATTERN.test(key)) return null;
      const found = await client.getObject(objectOf(key));
      return found && { body: found.body, size: found.size };
    },

    delete: (key) => client.deleteObject(objectOf(key)),

    async list() {
      const out: { key: string; writtenAt: Date }[] = [];
      for await (const listed of client.listObjects(PREFIX)) {
        const key = listed.key.slice(PREFIX.length);
        if (ARCHIVE_KEY_PATTERN.test(key)) out.push({ key, writtenAt: listed.lastModified });
      }
      return out;
    },
  };
}
