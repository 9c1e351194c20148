import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';

/** Real public keys in the OpenSSH form a user pastes (what a `.pub` file holds). */

const fromPem = (publicPem: string, comment: string) => {
  const key = sshpk.parseKey(publicPem, 'pem');
  key.comment = comment;
  return key.toString('ssh');
};

export function ed25519Key(comment = 'me@laptop') {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: fromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString(), comment),
    privateKey,
  };
}

export function ecdsaKey(curve: 'P-256' | 'P-384' | 'P-521', comment = 'ec@laptop') {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
  return fromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString(), comment);
}

export function rsaKey(bits: number, comment = 'rsa@laptop') {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return fromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString(), comment);
}

/** A DSA key as `ssh-keygen -t dsa` made it (OpenSSH itself no longer makes them). */
export const DSA_KEY =
  'ssh-dss AAAAB3NzaC1kc3MAAACBAJBjZx8MK1dN3OOCDTqDPP1c5DQlSiW1veDcBm0dZMzBiiHb1aCrtij98LnRY/xEyfAnidfb68VjSghs12m5E5CHX3XgP4JLOGcrUkKIFLBn0H9D0xaixeDI5Xp2Gjzt9eywPawEP6UWqq/SZfSwNZwvgekszSKsn7DWeK/9rs/VAAAAFQDxjIIwJaMxpb3p1qmfpiL2GBzCuwAAAIAMpRHSNGoaB7YCnEALhfN2WJWaH63lGyxfLN8wi2vmO4keiIwWf7RSg0POtifMTY5QMkvew14t/nNW08fdkXHrjIBXF3ql3ACKO9XaUpGSZcbqt7kmAASeW+mM2kbOR7AahwncbEluipSay1pGSjnWv3sF0jFlorIwRl72IM6a7AAAAIAPQAg55R7IiZ1wrKSjis6slmMzQnritF0PaPaE3SX0JVkAI9iaIapu9FjLUmTKCreJBvwZxwAf8bV4xgSf7bGZ7sGiYqDKmXX5B/72JIfumQ0cvN/RdTKf7mguJEPWztkprR3Anz+Jj1tEXxtF7fxy+VEjBI9DFnzwBgdrKpqeCw== root@vm';

/** An ed25519 private key in the OpenSSH form, as pasted by mistake instead of the `.pub`. */
export function privateKeyText() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return sshpk
    .parsePrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'pem')
    .toString('ssh');
}

/** `ssh-keygen -lf` of a public key line: `SHA256:…`. */
export const fingerprintOf = (line: string) =>
  sshpk.parseKey(line, 'ssh').fingerprint('sha256').toString();
