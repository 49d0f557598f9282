import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';

/** STORAGE_URL as loadConfig reads it: the store's settings, or a start-up error naming it. */
describe('STORAGE_URL', () => {
  it('is unset by default: files stay under DATA_DIR', () => {
    expect(loadConfig({}).storage).toBeUndefined();
  });

  it('reads an HTTPS store, its region and a prefix; decodes the key and secret', () => {
    const config = loadConfig({
      STORAGE_URL:
        's3://AKIAEXAMPLE:wJalr%2FK7MDENG%2Bb@s3.eu-west-1.amazonaws.com/portolan-files/prod/eu?region=eu-west-1',
    });
    expect(config.storage).toEqual({
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      bucket: 'portolan-files',
      prefix: 'prod/eu/',
      region: 'eu-west-1',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'wJalr/K7MDENG+b',
    });
  });

  it('reads a plain-HTTP store with a port (a local MinIO), region us-east-1 by default', () => {
    expect(
      loadConfig({ STORAGE_URL: 's3+http://minio:minio-secret@127.0.0.1:9000/uploads' }).storage,
    ).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'uploads',
      prefix: '',
      region: 'us-east-1',
    });
  });

  it.each([
    ['another scheme', 'https://KEY:SECRET-VALUE@host/bucket'],
    ['no credentials', 's3://host/bucket'],
    ['no secret', 's3://KEY@host/bucket'],
    ['no bucket', 's3://KEY:SECRET-VALUE@host'],
    ['a bucket name S3 refuses', 's3://KEY:SECRET-VALUE@host/My_Bucket'],
    ['an unknown parameter', 's3://KEY:SECRET-VALUE@host/bucket?regoin=eu-west-1'],
    ['a bad region', 's3://KEY:SECRET-VALUE@host/bucket?region=EU%20West'],
    ['an unencoded slash in the secret', 's3://KEY:SECRET-VALUE/x@host/bucket'],
    ['a bad percent-encoding', 's3://KEY:SECRET-VALUE%zz@host/bucket'],
  ])('stops start-up on %s, naming STORAGE_URL and never the secret', (_, value) => {
    let message = '';
    try {
      loadConfig({ STORAGE_URL: value });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/STORAGE_URL: /);
    expect(message).not.toContain('SECRET-VALUE');
  });
});
