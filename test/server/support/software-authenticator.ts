import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A WebAuthn authenticator in software, as a browser and a security key would answer together:
 * ES256 (P-256) credentials, "none" attestation, a signature counter per credential. What it
 * signs is built here byte by byte (authenticator data, COSE key, client data), so that the
 * server's verification is tested against the standard, not against itself.
 */

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

interface Held {
  id: Buffer;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
  discoverable: boolean;
}

export interface Answer {
  /** The challenge to answer (base64url) and the RP ID, from the server's options. */
  challenge: string;
  rpId: string;
  origin: string;
}

export class SoftwareAuthenticator {
  readonly credentials: Held[] = [];
  /** Whether it checks its user (PIN, biometrics): the UV flag. */
  userVerified = true;

  private clientData(type: string, answer: Answer) {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge: answer.challenge,
        origin: answer.origin,
        crossOrigin: false,
      }),
    );
  }

  private authData(rpId: string, counter: number, extra: Buffer = Buffer.alloc(0), at = false) {
    const flags = FLAG_UP | (this.userVerified ? FLAG_UV : 0) | (at ? FLAG_AT : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, extra]);
  }

  /** `navigator.credentials.create()`: a new credential for `user.id` (base64url) at the RP. */
  create(
    answer: Answer & { userHandle: string },
    options: { discoverable?: boolean; counter?: number } = {},
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    const id = randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const counter = options.counter ?? 0;
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, Buffer.from(cose)]);
    const authData = this.authData(answer.rpId, counter, attested, true);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const discoverable = options.discoverable ?? true;
    this.credentials.push({
      id,
      rpId: answer.rpId,
      userHandle: answer.userHandle,
      privateKey,
      counter,
      discoverable,
    });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', answer)),
        attestationObject: b64url(attestationObject),
        transports: ['usb'],
      },
      clientExtensionResults: { credProps: { rk: discoverable } },
    };
  }

  /**
   * `navigator.credentials.get()` with the credential `which` (the last made by default): signs
   * the authenticator data and the client data's hash, its counter one further.
   */
  get(answer: Answer, which?: Held, options: { counter?: number } = {}) {
    const held = which ?? this.credentials.at(-1)!;
    held.counter = options.counter ?? held.counter + 1;
    const authenticatorData = this.authData(answer.rpId, held.counter);
    const clientDataJSON = this.clientData('webauthn.get', answer);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      held.privateKey,
    );
    return {
      id: b64url(held.id),
      rawId: b64url(held.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: held.discoverable ? held.userHandle : undefined,
      },
      clientExtensionResults: {},
    };
  }
}
