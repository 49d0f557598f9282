import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * A local S3-compatible server for the tests: S3rver (@20minutes/s3rver, the maintained fork
 * for Node 24), a real implementation of S3's REST API in-process, storing in a temporary
 * directory. It checks SigV4 signatures (not the payload hash) of every signed request against
 * its one key pair, so a wrong secret is refused as AWS would refuse it (403
 * SignatureDoesNotMatch). It accepts unsigned requests as anonymous, which real stores do not:
 * the tests only ever send signed ones.
 */
type KoaMiddleware = (
  ctx: { path: string; mountPath?: string; state: Record<string, unknown> },
  next: () => Promise<unknown>,
) => unknown;
interface S3rverInstance {
  /** Koa's middleware list, composed at run(): the last one is S3rver's router. */
  middleware: KoaMiddleware[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
  vhostBuckets: boolean;
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverClass;

/** The key pair S3rver knows. */
export const S3_ACCESS_KEY = 'S3RVER';
export const S3_SECRET = 'S3RVER';

export interface LocalS3 {
  bucket: string;
  /** A STORAGE_URL for this server (plain HTTP); another secret to see it refused. */
  storageUrl(options?: { secret?: string; prefix?: string }): string;
  /** The raw bytes stored under a full key, read from the server's directory (null if none). */
  stored(key: string): Promise<Buffer | null>;
  stop(): Promise<void>;
}

export async function startLocalS3(bucket = 'portolan-test'): Promise<LocalS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'portolan-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
    vhostBuckets: false,
  });
  // The AWS SDK (v3) addresses the bucket itself as `/bucket/` (a listing) and signs that path, as
  // AWS and MinIO check it; S3rver rebuilds the signed path as `/bucket` (the SDK v2's form) and
  // would refuse a right signature. For that one path it is told the path it was sent: S3rver
  // builds the signed path of a virtual-host request as `/bucket` + its mount path (here `/`).
  server.middleware.splice(-1, 0, (ctx, next) => {
    if (ctx.path === `/${bucket}/`) {
      ctx.state.vhost = true;
      ctx.mountPath = '/';
    }
    return next();
  });
  const { port } = await server.run();
  return {
    bucket,
    storageUrl: ({ secret = S3_SECRET, prefix = '' } = {}) =>
      `s3+http://${S3_ACCESS_KEY}:${encodeURIComponent(secret)}@127.0.0.1:${port}/${bucket}${prefix ? `/${prefix}` : ''}?region=us-east-1`,
    async stored(key) {
      // S3rver keeps each object as <directory>/<bucket>/<key>._S3rver_object.
      const file = path.join(directory, bucket, `${key}._S3rver_object`);
      return fs.readFile(file).catch(() => null);
    },
    async stop() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
