import type { Readable } from 'node:stream';
import type * as Sdk from '@aws-sdk/client-s3';
import type { S3Settings } from './storage-url.ts';

/**
 * The store could not do what was asked: it cannot be reached, timed out, or answered an error
 * (a wrong secret, a missing bucket). The message names the operation, the key and S3's error
 * code — never a credential. Routes answer it 503 SERVICE_UNAVAILABLE.
 */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
}

export interface S3Object {
  body: Readable;
  size: number;
  contentType: string;
}

export interface S3Listed {
  /** The key without the settings' prefix. */
  key: string;
  lastModified: Date;
}

/** Connecting, or a socket silent this long, fails the attempt (the SDK then retries). */
const IDLE_TIMEOUT_MS = 30_000;

type SdkModule = typeof Sdk;
let sdkLoading: Promise<SdkModule> | undefined;
/**
 * The AWS SDK, loaded the first time a store is used (decision 0013): about 12 MB on disk and
 * 17 to 36 MB of memory that a server without STORAGE_URL never pays.
 */
const loadSdk = () => (sdkLoading ??= import('@aws-sdk/client-s3'));

/** What the SDK throws for an answer of the store: its status and S3's error code. */
function answerOf(err: unknown): { status: number | undefined; code: string } {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return {
    status: e?.$metadata?.httpStatusCode,
    code: e?.Code ?? e?.name ?? 'Error',
  };
}

/**
 * The S3 operations the portal uses (put, get, delete, list, multipart upload) on an
 * S3-compatible store, path-style, through the AWS SDK (@aws-sdk/client-s3): signing, checksums,
 * retries with backoff, kept-alive connections and the parsing of S3's answers are the SDK's.
 * This face stays the portal's own: keys below the settings' prefix, a missing object as null,
 * and every failure of the store as a StorageUnavailableError.
 */
export class S3Client {
  private readonly settings: S3Settings;
  private sdk: Promise<{ sdk: SdkModule; client: Sdk.S3Client }> | undefined;

  constructor(settings: S3Settings) {
    this.settings = settings;
  }

  /**
   * Loads the SDK now. Loading it evaluates its code on the event loop (0.4 to 1.4 s on a busy
   * two-core machine, decision 0013), so a server with a store does it before it listens rather
   * than in the middle of the first request that stores a file.
   */
  async load(): Promise<void> {
    await this.connect();
  }

  private connect() {
    return (this.sdk ??= loadSdk().then((sdk) => {
      const client = new sdk.S3Client({
        endpoint: this.settings.endpoint,
        region: this.settings.region,
        forcePathStyle: true,
        credentials: {
          accessKeyId: this.settings.accessKeyId,
          secretAccessKey: this.settings.secretAccessKey,
        },
        maxAttempts: 3,
        // The SDK's default CRC32 headers on every PUT and part are refused by several
        // S3-compatible stores (Backblaze B2, OVH, older R2 and MinIO): only where S3 requires one.
        // The body's SHA-256 is still in the signature.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: {
          connectionTimeout: IDLE_TIMEOUT_MS,
          socketTimeout: IDLE_TIMEOUT_MS,
          httpAgent: { keepAlive: true, maxSockets: 32 },
          httpsAgent: { keepAlive: true, maxSockets: 32 },
        },
      });
      return { sdk, client };
    }));
  }

  private objectKey(key: string) {
    return `${this.settings.prefix}${key}`;
  }

  /**
   * Runs one SDK call; a failure becomes a StorageUnavailableError naming the operation, the key
   * and the store's answer (or the network's error code), the SDK's error as its cause.
   */
  private async call<T>(
    operation: string,
    key: string,
    run: (sdk: SdkModule, client: Sdk.S3Client) => Promise<T>,
  ): Promise<T> {
    const { sdk, client } = await this.connect();
    try {
      return await run(sdk, client);
    } catch (err) {
      throw this.failure(operation, key, err);
    }
  }

  private failure(operation: string, key: string, err: unknown): StorageUnavailableError {
    if (err instanceof StorageUnavailableError) return err;
    const { status, code } = answerOf(err);
    const network = (err as NodeJS.ErrnoException)?.code;
    const what = status ? `${status} ${code}` : (network ?? code);
    return new StorageUnavailableError(`S3 ${operation} ${key}: ${what}`, { cause: err });
  }

  async putObject(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.call('PUT', key, (sdk, client) =>
      client.send(
        new sdk.PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.objectKey(key),
          Body: body,
          ContentType: contentType,
          ContentLength: body.length,
        }),
      ),
    );
  }

  /** The object, streaming; null when there is none under the key. */
  async getObject(key: string): Promise<S3Object | null> {
    const { sdk, client } = await this.connect();
    let answer: Sdk.GetObjectCommandOutput;
    try {
      answer = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
    } catch (err) {
      if (answerOf(err).status === 404) return null;
      throw this.failure('GET', key, err);
    }
    const body = answer.Body as Readable | undefined;
    // The portal answers with the size (Content-Length): a store that sends none is of no use.
    const size = answer.ContentLength;
    if (!body || size === undefined || !Number.isSafeInteger(size)) {
      body?.destroy();
      throw new StorageUnavailableError(`S3 GET ${key}: no Content-Length`);
    }
    return { body, size, contentType: answer.ContentType ?? 'application/octet-stream' };
  }

  /** Deleting a key that is not there is no error (S3 answers 204 either way). */
  async deleteObject(key: string): Promise<void> {
    const { sdk, client } = await this.connect();
    try {
      await client.send(
        new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
    } catch (err) {
      if (answerOf(err).status !== 404) throw this.failure('DELETE', key, err);
    }
  }

  /** Every key under `prefix` (below the settings' prefix), a page of 1,000 at a time. */
  async *listObjects(prefix: string): AsyncGenerator<S3Listed> {
    const { sdk, client } = await this.connect();
    const pages = sdk.paginateListObjectsV2(
      { client },
      { Bucket: this.settings.bucket, Prefix: this.objectKey(prefix) },
    );
    const iterator = pages[Symbol.asyncIterator]();
    for (;;) {
      let page: IteratorResult<Sdk.ListObjectsV2CommandOutput>;
      try {
        page = await iterator.next();
      } catch (err) {
        throw this.failure('LIST', prefix, err);
      }
      if (page.done) return;
      for (const entry of page.value.Contents ?? []) {
        if (entry.Key === undefined || entry.LastModified === undefined) continue;
        yield {
          key: entry.Key.slice(this.settings.prefix.length),
          lastModified: entry.LastModified,
        };
      }
    }
  }

  /** Starts a multipart upload; returns its id. */
  async createMultipartUpload(key: string, contentType: string): Promise<string> {
    const answer = await this.call('multipart start of', key, (sdk, client) =>
      client.send(
        new sdk.CreateMultipartUploadCommand({
          Bucket: this.settings.bucket,
          Key: this.objectKey(key),
          ContentType: contentType,
        }),
      ),
    );
    if (!answer.UploadId) {
      throw new StorageUnavailableError(`S3 multipart start of ${key}: no UploadId`);
    }
    return answer.UploadId;
  }

  /** Uploads one part (every part but the last at least 5 MiB); returns its ETag. */
  async uploadPart(key: string, uploadId: string, partNumber: number, body: Buffer) {
    const answer = await this.call('PUT part', key, (sdk, client) =>
      client.send(
        new sdk.UploadPartCommand({
          Bucket: this.settings.bucket,
          Key: this.objectKey(key),
          UploadId: uploadId,
          PartNumber: partNumber,
          Body: body,
          ContentLength: body.length,
        }),
      ),
    );
    if (!answer.ETag) throw new StorageUnavailableError(`S3 PUT part of ${key}: no ETag`);
    return answer.ETag;
  }

  /** Makes the parts the object; S3's error inside a 200 answer is thrown by the SDK. */
  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
  ): Promise<void> {
    await this.call('multipart completion of', key, (sdk, client) =>
      client.send(
        new sdk.CompleteMultipartUploadCommand({
          Bucket: this.settings.bucket,
          Key: this.objectKey(key),
          UploadId: uploadId,
          MultipartUpload: {
            Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })),
          },
        }),
      ),
    );
  }

  /** Gives up a multipart upload: its parts are discarded. */
  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    const { sdk, client } = await this.connect();
    try {
      await client.send(
        new sdk.AbortMultipartUploadCommand({
          Bucket: this.settings.bucket,
          Key: this.objectKey(key),
          UploadId: uploadId,
        }),
      );
    } catch (err) {
      if (answerOf(err).status !== 404) throw this.failure('multipart abort', key, err);
    }
  }
}

const clients = new WeakMap<S3Settings, S3Client>();

/** One client (one pool of connections) per configured store, shared by its users. */
export function s3ClientFor(settings: S3Settings): S3Client {
  let client = clients.get(settings);
  if (!client) {
    client = new S3Client(settings);
    clients.set(settings, client);
  }
  return client;
}
