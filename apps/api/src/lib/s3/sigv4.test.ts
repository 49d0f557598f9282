import { describe, expect, it } from 'vitest';
import { sha256Hex, signRequest, type RequestToSign } from './sigv4.ts';

/**
 * The worked examples of AWS's own documentation ("Signature Calculations for the Authorization
 * Header: Transferring Payload in a Single Chunk"), with its example credentials: a signature
 * that differs from theirs would be refused by every S3-compatible store.
 */
const EXAMPLE = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 's3',
};
const AT = new Date('2013-05-24T00:00:00Z');
const HOST = 'examplebucket.s3.amazonaws.com';
const EMPTY = sha256Hex('');

const signatureOf = (request: RequestToSign) => {
  const headers = signRequest(request, EXAMPLE, AT);
  return /Signature=([0-9a-f]{64})$/.exec(headers.authorization!)?.[1];
};

describe('SigV4', () => {
  it('signs GET Object with a Range header as AWS documents it', () => {
    const headers = signRequest(
      {
        method: 'GET',
        host: HOST,
        path: '/test.txt',
        headers: { Range: 'bytes=0-9' },
        payloadHash: EMPTY,
      },
      EXAMPLE,
      AT,
    );
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
  });

  it('signs PUT Object of a key that needs encoding, with its payload hash', () => {
    const body = 'Welcome to Amazon S3.';
    expect(sha256Hex(body)).toBe(
      '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
    );
    expect(
      signatureOf({
        method: 'PUT',
        host: HOST,
        path: '/test$file.text',
        headers: {
          Date: 'Fri, 24 May 2013 00:00:00 GMT',
          'x-amz-storage-class': 'REDUCED_REDUNDANCY',
        },
        payloadHash: sha256Hex(body),
      }),
    ).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
  });

  it('signs a sub-resource and a listing query (sorted, encoded)', () => {
    expect(
      signatureOf({
        method: 'GET',
        host: HOST,
        path: '/',
        query: { lifecycle: '' },
        payloadHash: EMPTY,
      }),
    ).toBe('fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543');
    expect(
      signatureOf({
        method: 'GET',
        host: HOST,
        path: '/',
        query: { prefix: 'J', 'max-keys': '2' },
        payloadHash: EMPTY,
      }),
    ).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });
});
