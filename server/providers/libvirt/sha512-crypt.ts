import { createHash, randomBytes } from 'node:crypto';

/**
 * SHA-512 crypt (`$6$salt$hash`, Ulrich Drepper's specification), the password hash cloud-init
 * writes into /etc/shadow: the seed carries the hash, never the password itself.
 */

const ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ROUNDS = 5000;

const sha512 = (...parts: Buffer[]) => {
  const hash = createHash('sha512');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** `length` bytes of `digest` repeated (the specification's P and S sequences). */
function repeated(digest: Buffer, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 64) digest.copy(out, i, 0, Math.min(64, length - i));
  return out;
}

/** The order in which the final digest's bytes are encoded, three at a time. */
const ORDER = [
  [0, 21, 42],
  [22, 43, 1],
  [44, 2, 23],
  [3, 24, 45],
  [25, 46, 4],
  [47, 5, 26],
  [6, 27, 48],
  [28, 49, 7],
  [50, 8, 29],
  [9, 30, 51],
  [31, 52, 10],
  [53, 11, 32],
  [12, 33, 54],
  [34, 55, 13],
  [56, 14, 35],
  [15, 36, 57],
  [37, 58, 16],
  [59, 17, 38],
  [18, 39, 60],
  [40, 61, 19],
  [62, 20, 41],
] as const;

function encode(digest: Buffer): string {
  let out = '';
  const put = (value: number, chars: number) => {
    for (let i = 0; i < chars; i += 1) {
      out += ALPHABET[value & 0x3f];
      value >>= 6;
    }
  };
  for (const [a, b, c] of ORDER) put((digest[a]! << 16) | (digest[b]! << 8) | digest[c]!, 4);
  put(digest[63]!, 2);
  return out;
}

export function sha512Crypt(password: string, salt?: string): string {
  const key = Buffer.from(password, 'utf8');
  const saltText = salt ?? Array.from(randomBytes(16), (byte) => ALPHABET[byte % 64]).join('');
  const s = Buffer.from(saltText.slice(0, 16), 'utf8');

  const b = sha512(key, s, key);
  const a = createHash('sha512').update(key).update(s);
  a.update(repeated(b, key.length));
  for (let n = key.length; n > 0; n >>= 1) a.update(n & 1 ? b : key);
  const aDigest = a.digest();

  const dp = createHash('sha512');
  for (let i = 0; i < key.length; i += 1) dp.update(key);
  const p = repeated(dp.digest(), key.length);

  const ds = createHash('sha512');
  for (let i = 0; i < 16 + aDigest[0]!; i += 1) ds.update(s);
  const sBytes = repeated(ds.digest(), s.length);

  let c = aDigest;
  for (let i = 0; i < ROUNDS; i += 1) {
    const round = createHash('sha512');
    round.update(i & 1 ? p : c);
    if (i % 3) round.update(sBytes);
    if (i % 7) round.update(p);
    round.update(i & 1 ? c : p);
    c = round.digest();
  }
  return `$6$${s.toString('utf8')}$${encode(c)}`;
}
