import { hkdfSync } from 'node:crypto';

/**
 * What each key derived from APP_SECRET is for. One key per purpose: a value made for one (a
 * console ticket, say) can never pass for another (a one-time code's digest), and no purpose ever
 * holds APP_SECRET itself.
 */
export type KeyPurpose =
  | 'vm-secrets:v1'
  | 'one-time-codes'
  | 'cookies'
  | 'console-tickets'
  | 'reseller-domains'
  | 'webauthn-user-handles';

export const deriveKey = (appSecret: string, purpose: KeyPurpose): Buffer =>
  Buffer.from(hkdfSync('sha256', appSecret, 'launchpad', purpose, 32));
