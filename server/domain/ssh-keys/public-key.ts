import sshpk from 'sshpk';
import {
  SSH_RSA_MIN_BITS,
  sshKeyMessages,
  type SshKeyType,
} from '../../../src/api/contract/ssh-keys';
import { badRequest } from '../../http-error';

/** What a public key line says, once checked. */
export interface PublicKeyInfo {
  type: SshKeyType;
  bits: number;
  /** `SHA256:…`, as `ssh-keygen -l` shows it. */
  fingerprint: string;
  comment: string | null;
  /** The line as it is stored and delivered: `type base64 [comment]`, single spaces. */
  line: string;
}

const refuse = (message: string) => badRequest(message, 'publicKey');

/** The key types the OpenSSH line names, and the one sshpk calls it by. */
const ACCEPTED: Record<string, SshKeyType> = {
  'ssh-ed25519': 'ed25519',
  'ecdsa-sha2-nistp256': 'ecdsa',
  'ecdsa-sha2-nistp384': 'ecdsa',
  'ecdsa-sha2-nistp521': 'ecdsa',
  'ssh-rsa': 'rsa',
};

/**
 * Reads one OpenSSH public key line (`ssh-ed25519 AAAA… comment`, what a `.pub` file holds) and
 * refuses, with a 400 on `publicKey` in words a user can act on, anything else: a private key
 * pasted by mistake, the SSH2 (PuTTY) export, several lines, a DSA key, an RSA key shorter than
 * 2048 bits, a security-key (`sk-`) or certificate type, or a line whose key data is damaged.
 */
export function readPublicKey(text: string): PublicKeyInfo {
  const trimmed = text.trim();
  if (/PRIVATE KEY|^PuTTY-User-Key-File/m.test(trimmed)) throw refuse(sshKeyMessages.keyPrivate);
  if (/^---- BEGIN SSH2 PUBLIC KEY ----/.test(trimmed)) throw refuse(sshKeyMessages.keySsh2);
  if (/[\r\n]/.test(trimmed)) throw refuse(sshKeyMessages.keyOneLine);

  const [prefix = '', data = '', ...rest] = trimmed.split(/\s+/);
  if (prefix === 'ssh-dss') throw refuse(sshKeyMessages.keyDsa);
  const type = ACCEPTED[prefix];
  if (!type) {
    // A known type the product does not take (security keys, certificates), or no type at all.
    const known = /^(sk-|ssh-|ecdsa-)/.test(prefix) || prefix.endsWith('@openssh.com');
    throw refuse(known ? sshKeyMessages.keyTypeUnsupported : sshKeyMessages.keyInvalid);
  }
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(`${prefix} ${data}`, 'ssh');
  } catch {
    throw refuse(sshKeyMessages.keyDamaged);
  }
  // The type inside the key data must be the one the line names (sshpk checks the prefix too).
  if (key.type !== type) throw refuse(sshKeyMessages.keyDamaged);
  if (type === 'rsa' && key.size < SSH_RSA_MIN_BITS) throw refuse(sshKeyMessages.keyRsaTooShort);

  const comment = rest.join(' ') || null;
  // eslint-disable-next-line no-control-regex
  if (comment && /[\u0000-\u001f\u007f]/.test(comment)) throw refuse(sshKeyMessages.keyInvalid);
  return {
    type,
    bits: key.size,
    fingerprint: key.fingerprint('sha256').toString(),
    comment,
    line: comment ? `${prefix} ${data} ${comment}` : `${prefix} ${data}`,
  };
}
