// engine-parity: COPY and exports
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  type TestApp,
} from '../../../test/support/app.ts';
import {
  startAnotherInstance,
  type AnotherInstance,
} from '../../../test/support/another-instance.ts';
import { startLocalS3, type LocalS3 } from '../../../test/support/s3-server.ts';
import { dataExports } from '../../db/schema/index.ts';
import { minutes } from '../../lib/clock.ts';
import { s3ClientFor } from '../../lib/s3/client.ts';
import { newArchiveKey, type ArchiveStore } from './archive-store.ts';
import { createS3ArchiveStore, MIN_PART_BYTES } from './s3-archive-store.ts';
import { linkIn, openArchive, runJob } from './test-support.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const BOUNDARY = '----s3-export-boundary';

/**
 * Export archives on an S3-compatible store (STORAGE_URL): built by instance A's job, downloaded
 * through instance B (same database, a DATA_DIR of its own); large archives go up in parts; a
 * failed build leaves nothing; the sweep finds orphans through the bucket's listing. The store
 * is a real S3 server (S3rver) checking every signature. Runs on both engines.
 */
describe('data export archives on an S3-compatible store', () => {
  let s3: LocalS3;
  let a: TestApp;
  let b: AnotherInstance;
  let store: ArchiveStore;

  beforeAll(async () => {
    s3 = await startLocalS3();
    a = await createTestApp({ STORAGE_URL: s3.storageUrl({ prefix: 'portal' }) });
    b = await startAnotherInstance(a, { STORAGE_URL: s3.storageUrl({ prefix: 'portal' }) });
    store = createS3ArchiveStore(s3ClientFor(a.ctx.config.storage!), {
      partBytes: MIN_PART_BYTES,
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await s3?.stop();
  });

  /** Chunks of 64 KiB of the given bytes, as the zip writer hands them over. */
  const writeAll = async (write: (chunk: Uint8Array) => Promise<void>, bytes: Buffer) => {
    for (let at = 0; at < bytes.length; at += 64 * 1024) {
      await write(bytes.subarray(at, at + 64 * 1024));
    }
  };
  const readAll = async (key: string) => {
    const opened = await store.open(key);
    if (!opened) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(chunk as Buffer);
    return { size: opened.size, bytes: Buffer.concat(chunks) };
  };

  it('builds an export on A that B downloads, signed in and through the e-mailed link', async () => {
    const { email, password } = await registerActiveUser(a);
    const token = await signIn(a, email, password);
    const up = await a.app.inject({
      method: 'POST',
      url: '/v1/upload/',
      headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\n\r\n`,
        ),
        PNG,
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]),
    });
    expect(up.statusCode, up.body).toBe(201);
    const uploadKey = up.json().url.split('/').at(-1);

    const asked = await a.app.inject({
      method: 'POST',
      url: '/v1/data-exports/',
      headers: bearer(token),
    });
    expect(asked.statusCode).toBe(202);
    expect(await runJob(a)).toBe(1);
    const [row] = await a.ctx.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.id, asked.json().id));
    expect(row?.status).toBe('READY');
    // In the bucket under the URL's prefix, on no instance's disk.
    const stored = await s3.stored(`portal/exports/${row!.storage_key}`);
    expect(stored?.length).toBe(row!.size_bytes);
    expect(fs.existsSync(path.join(a.ctx.config.dataDir, 'exports'))).toBe(false);

    const signedIn = await b.app.inject({
      method: 'GET',
      url: `/v1/data-exports/${row!.id}/download/`,
      headers: bearer(token),
    });
    expect(signedIn.headers['content-length']).toBe(String(row!.size_bytes));
    expect(signedIn.rawPayload.equals(stored!)).toBe(true);
    const zip = openArchive(signedIn);
    expect(zip.bytes(`uploads/${uploadKey}`)).toEqual(new Uint8Array(PNG));

    const link = linkIn((await a.mailTo(email)).text);
    const byLink = await b.app.inject({ method: 'GET', url: link });
    expect(byLink.rawPayload.equals(stored!)).toBe(true);
    expect(fs.existsSync(path.join(b.dataDir, 'exports'))).toBe(false);
  });

  it('uploads a large archive in parts and serves it whole', async () => {
    const bytes = crypto.randomBytes(2 * MIN_PART_BYTES + 123_457);
    const key = newArchiveKey();
    expect(await store.create(key, (write) => writeAll(write, bytes))).toBe(bytes.length);
    const read = await readAll(key);
    expect(read?.size).toBe(bytes.length);
    expect(read?.bytes.equals(bytes)).toBe(true);
    const listed = (await store.list()).find((f) => f.key === key);
    expect(Math.abs(listed!.writtenAt.getTime() - Date.now())).toBeLessThan(minutes(1));

    await store.delete(key);
    expect(await store.open(key)).toBeNull();
    expect((await store.list()).map((f) => f.key)).not.toContain(key);
  });

  it('leaves nothing under the key when the producer fails, before or after a part went up', async () => {
    for (const size of [1000, MIN_PART_BYTES + 1000]) {
      const key = newArchiveKey();
      await expect(
        store.create(key, async (write) => {
          await writeAll(write, crypto.randomBytes(size));
          throw new Error('the database went away');
        }),
      ).rejects.toThrow('the database went away');
      expect(await store.open(key)).toBeNull();
      expect(await s3.stored(`portal/exports/${key}`)).toBeNull();
    }
  });

  it('sweeps an archive no export names once it is old, keeping the ones that are named', async () => {
    const orphan = newArchiveKey();
    await store.create(orphan, (write) => write(Buffer.from('half an archive')));
    const named = (await a.ctx.db.select().from(dataExports)).map((r) => r.storage_key);
    expect(named.filter(Boolean)).toHaveLength(1);
    // Older than two leases (LEASE_MS is 10 minutes) by the job's clock.
    a.clock.advance(minutes(21));
    await runJob(a);
    expect(await store.open(orphan)).toBeNull();
    expect(await store.open(named.find(Boolean)!)).not.toBeNull();
  });
});
