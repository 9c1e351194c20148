import { generateKeyPair, randomBytes, randomInt } from 'node:crypto';
import { promisify } from 'node:util';
import { isStrongPassword } from '../../../src/api/contract/validation';

const generate = promisify(generateKeyPair);

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
// Characters that survive a shell, a URL and a copy from a web page unquoted.
const SYMBOLS = '!@#%^*-_=+';
const ALL = LOWER + UPPER + DIGITS + SYMBOLS;

const pick = (set: string) => set[randomInt(set.length)]!;

/** A 20-character password from the CSPRNG with every character class, never ambiguous ones. */
export function generateVmPassword(): string {
  for (;;) {
    const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SYMBOLS)];
    while (chars.length < 20) chars.push(pick(ALL));
    for (let i = chars.length - 1; i > 0; i -= 1) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j]!, chars[i]!];
    }
    const password = chars.join('');
    if (isStrongPassword(password)) return password;
  }
}

/** SSH wire format: a uint32 length, then the bytes. */
const sshString = (value: Buffer | string) => {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};

/**
 * A real ed25519 key pair: the private key in OpenSSH's own format (what `ssh -i privateKey.pem`
 * and `ssh-keygen` read), the public key as the `ssh-ed25519 AAAA… comment` line.
 */
export async function generateSshKeyPair(comment: string) {
  const { privateKey } = await generate('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d!, 'base64url');
  const pub = Buffer.from(jwk.x!, 'base64url');
  const publicBlob = Buffer.concat([sshString('ssh-ed25519'), sshString(pub)]);

  const check = randomBytes(4);
  let secret = Buffer.concat([
    check,
    check,
    publicBlob,
    sshString(Buffer.concat([seed, pub])),
    sshString(comment),
  ]);
  // Unencrypted keys are padded to the cipher block size of 8 with the bytes 1, 2, 3 ...
  const padding = (8 - (secret.length % 8)) % 8;
  secret = Buffer.concat([secret, Buffer.from(Array.from({ length: padding }, (_, i) => i + 1))]);

  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    Buffer.from([0, 0, 0, 1]),
    sshString(publicBlob),
    sshString(secret),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g)!;
  return {
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
    publicKey: `ssh-ed25519 ${publicBlob.toString('base64')} ${comment}`,
  };
}
