import { describe, expect, it } from 'vitest';
import { deriveKey, type KeyPurpose } from '../../server/domain/app-keys';

describe('the keys derived from APP_SECRET', () => {
  const secret = 'an-app-secret-of-thirty-two-chars!';
  const purposes: KeyPurpose[] = [
    'vm-secrets:v1',
    'one-time-codes',
    'cookies',
    'console-tickets',
    'reseller-domains',
  ];

  it('are one per purpose, none of them the secret itself', () => {
    const keys = purposes.map((purpose) => deriveKey(secret, purpose).toString('hex'));
    expect(new Set(keys).size).toBe(purposes.length);
    for (const key of keys) {
      expect(key).toHaveLength(64);
      expect(key).not.toContain(Buffer.from(secret).toString('hex'));
    }
  });

  it('are the same for the same secret (every process of one database agrees)', () => {
    expect(deriveKey(secret, 'cookies').equals(deriveKey(secret, 'cookies'))).toBe(true);
    expect(deriveKey(secret, 'cookies').equals(deriveKey(`${secret}x`, 'cookies'))).toBe(false);
  });
});
