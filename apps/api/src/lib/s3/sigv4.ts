import crypto from 'node:crypto';

/**
 * AWS Signature Version 4 for S3-compatible stores, with node:crypto: the whole of what a client
 * needs is this page, so no SDK (the AWS one costs tens of megabytes of memory). Reference:
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html — the test checks
 * the examples published there.
 */

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** `s3` for object stores. */
  service: string;
}

export interface RequestToSign {
  method: string;
  /** Host as sent in the Host header (with the port when it is not the default). */
  host: string;
  /** The path, not yet encoded: each segment is encoded here, once (S3's rule). */
  path: string;
  query?: Record<string, string>;
  /**
   * Headers to send and sign (names any case). Host, x-amz-date and x-amz-content-sha256 are
   * added; Content-Length is better left out (proxies may rewrite it).
   */
  headers?: Record<string, string>;
  /** The hex SHA-256 of the body (sha256Hex), or UNSIGNED-PAYLOAD. */
  payloadHash: string;
}

export const sha256Hex = (data: Uint8Array | string) =>
  crypto.createHash('sha256').update(data).digest('hex');

const hmac = (key: crypto.BinaryLike, data: string) =>
  crypto.createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding, as SigV4 wants it: encodeURIComponent leaves !'()* alone. */
export const encodeRfc3986 = (s: string) =>
  encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

export const encodePath = (path: string) => path.split('/').map(encodeRfc3986).join('/');

/** 20130524T000000Z */
const amzDate = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * The headers to send with the request (the given ones, Host, x-amz-date, x-amz-content-sha256
 * and Authorization), lower-case names. `at` is the machine's own time: stores refuse a request
 * more than 15 minutes off theirs.
 */
export function signRequest(
  request: RequestToSign,
  credentials: SigningCredentials,
  at: Date,
): Record<string, string> {
  const date = amzDate(at);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    headers[name.toLowerCase()] = value.trim().replace(/\s+/g, ' ');
  }
  headers.host = request.host;
  headers['x-amz-date'] = date;
  headers['x-amz-content-sha256'] = request.payloadHash;

  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonicalQuery = Object.entries(request.query ?? {})
    .map(([k, v]) => [encodeRfc3986(k), encodeRfc3986(v)] as const)
    .sort(([k1, v1], [k2, v2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [
    request.method.toUpperCase(),
    encodePath(request.path),
    canonicalQuery,
    names.map((n) => `${n}:${headers[n]}\n`).join(''),
    signedHeaders,
    request.payloadHash,
  ].join('\n');

  const scope = `${date.slice(0, 8)}/${credentials.region}/${credentials.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${credentials.secretAccessKey}`, date.slice(0, 8));
  for (const part of [credentials.region, credentials.service, 'aws4_request']) {
    key = hmac(key, part);
  }
  const signature = crypto.createHmac('sha256', key).update(stringToSign).digest('hex');
  headers.authorization =
    `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, ` +
    `SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
