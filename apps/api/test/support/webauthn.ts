import crypto from 'node:crypto';

/**
 * A software authenticator for API tests: what a browser's platform authenticator answers to
 * navigator.credentials.create() and .get() (WebAuthn Level 2: "none" attestation, ES256 keys,
 * user present and verified), built here with node:crypto and a minimal CBOR encoder, so the
 * server's real verification (@simplewebauthn/server) checks it. The browser tests use Chromium's
 * own virtual authenticator instead.
 */

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | Cbor[];

/** CBOR (RFC 8949) of the few kinds a credential needs. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value);
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  return Buffer.concat([
    head(5, value.size),
    ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]),
  ]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();

interface CreationOptions {
  challenge: string;
  rp: { id: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId: string;
  allowCredentials?: { id: string }[];
}

/** One authenticator holding one passkey, after `register`. */
export class SoftAuthenticator {
  readonly credentialId = crypto.randomBytes(16);
  private readonly keys = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private counter = 0;
  userHandle: string | null = null;
  private readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  private authData(rpId: string, attested: boolean): Buffer {
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const flags = 0x01 | 0x04 | (attested ? 0x40 : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const parts: Uint8Array[] = [sha256(rpId), Buffer.from([flags]), count];
    if (attested) {
      const jwk = this.keys.publicKey.export({ format: 'jwk' });
      const coseKey = new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), idLength, this.credentialId, cbor(coseKey));
    }
    return Buffer.concat(parts);
  }

  /** The RegistrationResponseJSON of navigator.credentials.create(). */
  register(options: CreationOptions, origin = this.origin) {
    this.userHandle = options.user.id;
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin }),
    );
    const attestation = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.authData(options.rp.id, true)],
      ]),
    );
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientData),
        attestationObject: b64url(attestation),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** The AuthenticationResponseJSON of navigator.credentials.get(). */
  assert(options: RequestOptions, origin = this.origin) {
    this.counter += 1;
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin }),
    );
    const authData = this.authData(options.rpId, false);
    const signature = crypto.sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      this.keys.privateKey,
    );
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle ?? undefined,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
