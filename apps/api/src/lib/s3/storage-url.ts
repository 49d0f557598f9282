/**
 * STORAGE_URL: where uploads and export archives live when several instances share them, an
 * S3-compatible store addressed path-style (https://host/bucket/key), so it works with AWS, MinIO,
 * Ceph, R2, … alike:
 *
 *   s3://ACCESS_KEY:SECRET@host[:port]/bucket[/prefix][?region=us-east-1]   (HTTPS)
 *   s3+http://ACCESS_KEY:SECRET@127.0.0.1:9000/bucket                       (plain HTTP: a local MinIO)
 *
 * The key and secret are percent-encoded where they hold `/`, `@`, `:`, `#`, `?` or `%` (AWS
 * secrets often hold `/`: write it %2F).
 */
export interface S3Settings {
  /** Origin of the store: `https://host[:port]`. */
  endpoint: string;
  bucket: string;
  /** Put before every key: empty, or ending in `/`. */
  prefix: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A bad STORAGE_URL; the message never repeats the value (it holds a secret). */
export class StorageUrlError extends Error {}

const FORM =
  'expected s3://ACCESS_KEY:SECRET@host[:port]/bucket[/prefix][?region=…] (s3+http:// for a plain-HTTP endpoint)';
const PROTOCOLS: Record<string, 'http' | 'https'> = {
  's3:': 'https',
  's3+https:': 'https',
  's3+http:': 'http',
};
/** S3's rule for bucket names (path-style addressing allows no more). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{1,32}$/;

export function parseStorageUrl(value: string): S3Settings {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new StorageUrlError(
      `not a URL: ${FORM}; percent-encode "/" in the secret as %2F (and "@" as %40)`,
    );
  }
  const scheme = PROTOCOLS[url.protocol];
  if (!scheme) throw new StorageUrlError(FORM);
  if (!url.hostname) throw new StorageUrlError(`no host: ${FORM}`);
  let accessKeyId: string;
  let secretAccessKey: string;
  try {
    accessKeyId = decodeURIComponent(url.username);
    secretAccessKey = decodeURIComponent(url.password);
  } catch {
    throw new StorageUrlError('the access key or secret is not validly percent-encoded');
  }
  if (!accessKeyId || !secretAccessKey) {
    throw new StorageUrlError(`needs the access key and the secret: ${FORM}`);
  }
  const [bucket = '', ...rest] = url.pathname.replace(/^\/+/, '').split('/');
  if (!BUCKET.test(bucket)) {
    throw new StorageUrlError(
      `needs a bucket name (3 to 63 lower-case letters, digits, dots or hyphens) as its path: ${FORM}`,
    );
  }
  const prefix = rest.filter(Boolean).join('/');
  if (prefix.includes('..')) throw new StorageUrlError('the prefix after the bucket has ".."');
  let region = 'us-east-1';
  for (const [name, v] of url.searchParams) {
    if (name !== 'region') {
      throw new StorageUrlError(`unknown parameter "${name}" (only region= is read)`);
    }
    if (!REGION.test(v)) throw new StorageUrlError('region= is not a region name (us-east-1, …)');
    region = v;
  }
  if (url.hash) throw new StorageUrlError(`has a #fragment: ${FORM}`);
  return {
    endpoint: `${scheme}://${url.host}`,
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    region,
    accessKeyId,
    secretAccessKey,
  };
}
