import type { S3Client } from '../../lib/s3/client.ts';
import { STORAGE_KEY_PATTERN, type FileStorage } from './storage.ts';

/**
 * The uploads on an S3-compatible store (STORAGE_URL), under `uploads/<key>` with their type as
 * the object's Content-Type, so every instance serves every file. Files are still served through
 * the portal (`/uploads/<key>`), never from the store: the headers, the CSP and the one origin
 * stay as they are, and the bucket stays private.
 */
export function createS3FileStorage(client: S3Client): FileStorage {
  const objectOf = (key: string) => {
    if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`invalid storage key: ${key}`);
    return `uploads/${key}`;
  };
  return {
    put: (key, bytes, contentType) =>
      client.putObject(
        objectOf(key),
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
        contentType,
      ),
    async get(key) {
      if (!STORAGE_KEY_PATTERN.test(key)) return null;
      return client.getObject(objectOf(key));
    },
    delete: (key) => client.deleteObject(objectOf(key)),
    url: (key) => `/uploads/${key}`,
  };
}
