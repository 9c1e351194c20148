import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from './app-keys';

/**
 * Secrets kept for users (VM passwords and private keys), encrypted at rest with a key derived from
 * APP_SECRET: AES-256-GCM, stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/**
 * A sealed secret this server cannot open: sealed with another APP_SECRET (a database restored
 * without its secret), or damaged. The key is not this server's to guess: the client is told so.
 */
export class UnreadableSecret extends Error {
  constructor(cause?: unknown) {
    super('Unreadable secret', { cause });
    this.name = 'UnreadableSecret';
  }
}

export function createSecretBox(appSecret: string): SecretBox {
  const key = deriveKey(appSecret, 'vm-secrets:v1');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new UnreadableSecret();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(data, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch (error) {
        // GCM's tag does not match: another key (APP_SECRET), or altered bytes.
        throw new UnreadableSecret(error);
      }
    },
  };
}
