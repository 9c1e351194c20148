import { z } from './zod';
import { emptyEnvelope, envelope, idSchema } from './envelope';
import { NO_CONTROL_CHARACTERS } from './validation';

/**
 * A user's own public SSH keys (Profile → SSH keys): one OpenSSH line each (ed25519, ECDSA, or RSA
 * of 2048 bits or more), offered when a VM is created or reinstalled and delivered to the guest by
 * cloud-init. Only their user sees and uses them.
 */

export const SSH_KEY_NAME_MAX = 100;
/** How many keys one user may keep. */
export const SSH_KEYS_PER_USER = 50;
/** Long enough for an RSA key of 16384 bits and a comment. */
export const SSH_PUBLIC_KEY_MAX = 16_384;
export const SSH_RSA_MIN_BITS = 2048;

export const sshKeyTypes = ['ed25519', 'ecdsa', 'rsa'] as const;
export type SshKeyType = (typeof sshKeyTypes)[number];

export const sshKeyMessages = {
  nameRequired: 'Key name cannot be empty',
  nameTooLong: `Key name must not exceed ${SSH_KEY_NAME_MAX} characters`,
  nameControlCharacters: 'Key name must not contain control characters',
  keyRequired: 'Paste a public key',
  keyTooLong: 'This is too long to be a public key',
  keyOneLine: 'Paste one public key, on a single line',
  keyPrivate:
    'This is a private key: paste the public key instead (the .pub file, starting with ssh-ed25519, ecdsa-sha2-… or ssh-rsa)',
  keyInvalid:
    'This is not an OpenSSH public key: it should look like "ssh-ed25519 AAAA… comment" (the .pub file)',
  keySsh2:
    'This key is in the SSH2 (PuTTY) format: paste it in the OpenSSH form instead (ssh-keygen -i -f key.pub, or PuTTYgen\'s "Public key for pasting into OpenSSH authorized_keys file")',
  keyDamaged: 'This public key is damaged or incomplete: copy the whole line again',
  keyDsa: 'DSA keys are no longer accepted: use an ed25519, ECDSA or RSA key',
  keyTypeUnsupported: 'Only ed25519, ECDSA and RSA keys are accepted',
  keyRsaTooShort: `RSA keys must be at least ${SSH_RSA_MIN_BITS} bits long`,
  duplicate: 'You have already added this key',
  tooMany: `You can keep at most ${SSH_KEYS_PER_USER} SSH keys: delete one first`,
  notFound: 'SSH key not found',
  chosenNotFound: 'One of the chosen SSH keys does not exist',
  created: 'SSH key added',
  deleted: 'SSH key deleted',
} as const;

const keyName = z
  .string({ error: sshKeyMessages.nameRequired })
  .check(
    z.trim(),
    z.minLength(1, sshKeyMessages.nameRequired),
    z.maxLength(SSH_KEY_NAME_MAX, { error: sshKeyMessages.nameTooLong, abort: true }),
    z.regex(NO_CONTROL_CHARACTERS, sshKeyMessages.nameControlCharacters),
  );

export const createSshKeyBody = z.object({
  name: keyName,
  /** One OpenSSH public key line (`type base64 [comment]`); checked on the server. */
  publicKey: z
    .string({ error: sshKeyMessages.keyRequired })
    .check(
      z.trim(),
      z.minLength(1, sshKeyMessages.keyRequired),
      z.maxLength(SSH_PUBLIC_KEY_MAX, { error: sshKeyMessages.keyTooLong, abort: true }),
    ),
});
export type CreateSshKeyBody = z.input<typeof createSshKeyBody>;

export const sshKey = z.object({
  id: z.int(),
  name: z.string(),
  type: z.enum(sshKeyTypes),
  /** The key's size: 256 for ed25519, the curve's for ECDSA, the modulus's for RSA. */
  bits: z.int(),
  /** `SHA256:…`, as `ssh-keygen -l` shows it. */
  fingerprint: z.string(),
  /** The key's comment, when it has one. */
  comment: z.nullable(z.string()),
  publicKey: z.string(),
  createdAt: z.date(),
});
export type SshKey = z.infer<typeof sshKey>;

export const createSshKeyResponse = envelope(sshKey);
export const listSshKeysResponse = envelope(z.array(sshKey));
export const sshKeyIdParam = z.object({ id: idSchema });
export const deleteSshKeyResponse = emptyEnvelope;

/** The account keys a VM is given (create, reinstall): each one of the caller's own. */
export const sshKeyIdsSchema = z
  .array(idSchema)
  .check(z.maxLength(SSH_KEYS_PER_USER, `At most ${SSH_KEYS_PER_USER} keys`));
