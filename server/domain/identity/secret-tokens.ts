import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: session tokens and e-mailed links. */
export const newSecretToken = () => randomBytes(32).toString('base64url');

/** What the database keeps instead of the token. */
export const hashSecretToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Anything else cannot be one of ours, so it is not worth a database round trip. */
export const isWellFormedSecretToken = (value: string) => /^[A-Za-z0-9_-]{43}$/.test(value);
