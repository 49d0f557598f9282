import http from 'node:http';
import type https from 'node:https';
import type { Readable } from 'node:stream';
import {
  encodePath,
  encodeRfc3986,
  sha256Hex,
  signRequest,
  type SigningCredentials,
} from './sigv4.ts';
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

/** A socket silent this long (connecting, or in the middle of a body) fails the request. */
const IDLE_TIMEOUT_MS = 30_000;
/** Error answers are read up to this much (an XML document of a few hundred bytes). */
const MAX_ERROR_BODY = 64 * 1024;

interface Call {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  /** The object's key below the prefix; null for the bucket itself. */
  key: string | null;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Buffer;
}

/**
 * A minimal S3 client over node:http(s): the object operations the portal uses (put, get, delete,
 * list, multipart upload), path-style, every request signed with SigV4 and its body's SHA-256
 * (bodies are buffers here, so the store checks what it received). Connections are kept alive.
 */
export class S3Client {
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;
  /** As in the Host header (and the signature): with the port when one is given. */
  private readonly host: string;
  private readonly hostname: string;
  private readonly port: string;
  private readonly credentials: SigningCredentials;
  private readonly settings: S3Settings;

  constructor(settings: S3Settings) {
    this.settings = settings;
    const endpoint = new URL(settings.endpoint);
    // node:https (and TLS) is loaded only for an HTTPS store: idle memory counts.
    this.transport = endpoint.protocol === 'https:' ? process.getBuiltinModule('node:https') : http;
    this.host = endpoint.host;
    this.hostname = endpoint.hostname.replace(/^\[|\]$/g, '');
    this.port = endpoint.port;
    this.agent = new this.transport.Agent({ keepAlive: true, maxSockets: 32 });
    this.credentials = {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      region: settings.region,
      service: 's3',
    };
  }

  async putObject(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.expectOk({ method: 'PUT', key, body, headers: { 'content-type': contentType } });
  }

  /** The object, streaming; null when there is none under the key. */
  async getObject(key: string): Promise<S3Object | null> {
    const res = await this.send({ method: 'GET', key });
    if (res.statusCode === 404) {
      res.resume();
      return null;
    }
    if (res.statusCode !== 200) throw await this.failure('GET', key, res);
    // The portal answers with the size (Content-Length): a store that sends none is of no use.
    const size = Number(res.headers['content-length'] ?? Number.NaN);
    if (!Number.isSafeInteger(size)) {
      res.destroy();
      throw new StorageUnavailableError(`S3 GET ${key}: no Content-Length`);
    }
    return {
      body: res,
      size,
      contentType: res.headers['content-type'] ?? 'application/octet-stream',
    };
  }

  /** Deleting a key that is not there is no error (S3 answers 204 either way). */
  async deleteObject(key: string): Promise<void> {
    const res = await this.send({ method: 'DELETE', key });
    if (res.statusCode === 404) res.resume();
    else if (res.statusCode! >= 300) throw await this.failure('DELETE', key, res);
    else res.resume();
  }

  /** Every key under `prefix` (below the settings' prefix), a page of 1,000 at a time. */
  async *listObjects(prefix: string): AsyncGenerator<S3Listed> {
    let token: string | undefined;
    do {
      const query: Record<string, string> = {
        'list-type': '2',
        prefix: this.settings.prefix + prefix,
        ...(token && { 'continuation-token': token }),
      };
      const xml = await this.expectOk({ method: 'GET', key: null, query });
      for (const [, entry] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const key = xmlText(entry!, 'Key');
        const modified = xmlText(entry!, 'LastModified');
        if (key === null || modified === null) continue;
        yield { key: key.slice(this.settings.prefix.length), lastModified: new Date(modified) };
      }
      token =
        xmlText(xml, 'IsTruncated') === 'true'
          ? (xmlText(xml, 'NextContinuationToken') ?? undefined)
          : undefined;
    } while (token);
  }

  /** Starts a multipart upload; returns its id. */
  async createMultipartUpload(key: string, contentType: string): Promise<string> {
    const xml = await this.expectOk({
      method: 'POST',
      key,
      query: { uploads: '' },
      headers: { 'content-type': contentType },
    });
    const id = xmlText(xml, 'UploadId');
    if (!id) throw new StorageUnavailableError(`S3 multipart start of ${key}: no UploadId`);
    return id;
  }

  /** Uploads one part (every part but the last at least 5 MiB); returns its ETag. */
  async uploadPart(key: string, uploadId: string, partNumber: number, body: Buffer) {
    const query = { partNumber: String(partNumber), uploadId };
    const res = await this.send({ method: 'PUT', key, query, body });
    if (res.statusCode !== 200) throw await this.failure('PUT part', key, res);
    res.resume();
    const etag = res.headers.etag;
    if (!etag) throw new StorageUnavailableError(`S3 PUT part of ${key}: no ETag`);
    return etag;
  }

  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
  ): Promise<void> {
    const body = Buffer.from(
      `<CompleteMultipartUpload>${parts
        .map(
          (p) =>
            `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${escapeXml(p.etag)}</ETag></Part>`,
        )
        .join('')}</CompleteMultipartUpload>`,
    );
    const xml = await this.expectOk({
      method: 'POST',
      key,
      query: { uploadId },
      headers: { 'content-type': 'application/xml' },
      body,
    });
    // S3 may answer 200 and still fail: the error is then in the body.
    if (/<Error>/.test(xml)) {
      throw new StorageUnavailableError(
        `S3 multipart completion of ${key}: ${xmlText(xml, 'Code') ?? 'error'}`,
      );
    }
  }

  /** Gives up a multipart upload: its parts are discarded. */
  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    const res = await this.send({ method: 'DELETE', key, query: { uploadId } });
    if (res.statusCode! >= 300 && res.statusCode !== 404) {
      throw await this.failure('multipart abort', key, res);
    }
    res.resume();
  }

  /** Sends the call and reads a 2xx answer's body as text; any other answer throws. */
  private async expectOk(call: Call): Promise<string> {
    const res = await this.send(call);
    if (res.statusCode! < 200 || res.statusCode! >= 300) {
      throw await this.failure(`${call.method}`, call.key ?? '(bucket)', res);
    }
    return readText(res, Infinity);
  }

  private async failure(operation: string, key: string, res: http.IncomingMessage) {
    const text = await readText(res, MAX_ERROR_BODY).catch(() => '');
    const code = xmlText(text, 'Code') ?? res.statusMessage ?? '';
    return new StorageUnavailableError(`S3 ${operation} ${key}: ${res.statusCode} ${code}`.trim());
  }

  /**
   * One signed request; resolves with the answer (its body unread). A request on a kept-alive
   * connection that the store had closed meanwhile is sent once more on a new one.
   */
  private async send(call: Call): Promise<http.IncomingMessage> {
    try {
      return await this.sendOnce(call);
    } catch (err) {
      if ((err as { reusedSocket?: boolean }).reusedSocket) return this.sendOnce(call);
      throw err;
    }
  }

  private sendOnce(call: Call): Promise<http.IncomingMessage> {
    // The bucket itself is `/bucket`, no trailing slash: some stores rebuild the signed path
    // without one.
    const path = `/${this.settings.bucket}${call.key === null ? '' : `/${this.settings.prefix}${call.key}`}`;
    const body = call.body ?? Buffer.alloc(0);
    const headers = signRequest(
      {
        method: call.method,
        host: this.host,
        path,
        query: call.query,
        headers: call.headers,
        payloadHash: sha256Hex(body),
      },
      this.credentials,
      new Date(),
    );
    const search = Object.entries(call.query ?? {})
      .map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`)
      .join('&');
    const target = `${encodePath(path)}${search ? `?${search}` : ''}`;
    return new Promise((resolve, reject) => {
      const req = this.transport.request(
        {
          host: this.hostname,
          port: this.port || undefined,
          method: call.method,
          path: target,
          agent: this.agent,
          headers: { ...headers, 'content-length': String(body.length) },
          timeout: IDLE_TIMEOUT_MS,
        },
        resolve,
      );
      req.on('timeout', () =>
        req.destroy(
          new StorageUnavailableError(`S3 ${call.method} ${call.key ?? '(bucket)'}: timed out`),
        ),
      );
      req.on('error', (err) => {
        const failed =
          err instanceof StorageUnavailableError
            ? err
            : new StorageUnavailableError(
                `S3 ${call.method} ${call.key ?? '(bucket)'}: ${(err as NodeJS.ErrnoException).code ?? err.message}`,
                { cause: err },
              );
        Object.assign(failed, { reusedSocket: req.reusedSocket });
        reject(failed);
      });
      req.end(body);
    });
  }
}

/** The text of the first <name> element, entities decoded; null when there is none. */
function xmlText(xml: string, name: string): string | null {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  if (!match) return null;
  return match[1]!
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&');
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

async function readText(res: http.IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      res.destroy();
      break;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
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
