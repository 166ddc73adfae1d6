import type { PasskeyAssertion, PasskeyRegistrationResponse } from '@pivot/contracts';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { type KeyObject, createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

type CborValue = Parameters<typeof isoCBOR.encode>[0];

const base64Url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** authenticatorData's flags (WebAuthn §6.1): user present, user verified, attested credential data. */
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const ATTESTED_CREDENTIAL = 0x40;

/**
 * A passkey held in the test, as a platform authenticator holds one: an ES256 key pair, the
 * credential's id and its signature counter. It answers the server's options the way a browser
 * passes an authenticator's answer on, attestation 'none', built byte by byte (WebAuthn §6.1,
 * §6.5.1, COSE's EC2 key), so the server's checks run on answers as real as a browser's.
 */
export class SoftwareAuthenticator {
  readonly credentialId = base64Url(randomBytes(16));
  counter = 0;
  private readonly keys: { publicKey: KeyObject; privateKey: KeyObject };

  constructor(
    private readonly origin: string,
    private readonly rpId: string,
  ) {
    this.keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  }

  /** navigator.credentials.create's answer to the registration options' challenge. */
  register(challenge: string, origin = this.origin): PasskeyRegistrationResponse {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    const coseKey = isoCBOR.encode(
      new Map<number, CborValue>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const credentialId = Buffer.from(this.credentialId, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      this.authenticatorData(USER_PRESENT | USER_VERIFIED | ATTESTED_CREDENTIAL),
      Buffer.alloc(16), // AAGUID: none told
      idLength,
      credentialId,
      coseKey,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, CborValue>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', challenge, origin),
        attestationObject: base64Url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get's answer to a sign-in's options: the counter moves on first unless told which to sign. */
  assert(
    challenge: string,
    { origin = this.origin, counter = ++this.counter }: { origin?: string; counter?: number } = {},
  ): PasskeyAssertion {
    const clientDataJSON = this.clientData('webauthn.get', challenge, origin);
    const authData = this.authenticatorData(USER_PRESENT | USER_VERIFIED, counter);
    const signed = Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: base64Url(authData),
        signature: base64Url(sign('sha256', signed, this.keys.privateKey)),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  private authenticatorData(flags: number, counter = this.counter): Buffer {
    const signCount = Buffer.alloc(4);
    signCount.writeUInt32BE(counter);
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags]), signCount]);
  }

  private clientData(type: string, challenge: string, origin: string): string {
    return base64Url(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
  }
}
