import type { SshKey } from '../../../../api/contract/ssh-keys';

const typeNames: Record<SshKey['type'], string> = {
  ed25519: 'ED25519',
  ecdsa: 'ECDSA',
  rsa: 'RSA',
};

/** `ED25519`, `ECDSA 384-bit`, `RSA 4096-bit`: an ed25519 key has one size only. */
export const keyTypeLabel = (key: Pick<SshKey, 'type' | 'bits'>) =>
  key.type === 'ed25519' ? typeNames.ed25519 : `${typeNames[key.type]} ${key.bits}-bit`;

/** The fixed leads of this section's failures; the server's message follows each. */
export const sshKeyErrorLeads = {
  fetch: 'Error fetching SSH keys',
  create: 'Error adding SSH key',
  delete: 'Error deleting SSH key',
} as const;
