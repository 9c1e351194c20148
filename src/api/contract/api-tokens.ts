import { z } from './zod';
import { emptyEnvelope, envelope, idSchema } from './envelope';
import { NO_CONTROL_CHARACTERS } from './validation';

/**
 * Personal API tokens: a user's machine credential, sent as `Authorization: Bearer lp_…`. A token
 * acts with at most its user's current rights, narrowed by `access` (`read`: GET only) and, when
 * set, `teamIds` (the other teams, their VMs and the VMs without a team are out of its sight, and
 * so is the company's administration); it never signs in, makes tokens, or changes a password.
 * The secret is answered once, at creation; the server keeps only its hash.
 */

export const API_TOKEN_NAME_MAX = 100;
/** How long a token may live at most. */
export const API_TOKEN_MAX_LIFETIME_DAYS = 366;
/** `lp_` and 32 random bytes in base62: a form secret scanners can recognise. */
export const API_TOKEN_PATTERN = /^lp_[0-9A-Za-z]{43}$/;

export const apiTokenAccess = ['read', 'readWrite'] as const;
export type ApiTokenAccess = (typeof apiTokenAccess)[number];

export const apiTokenMessages = {
  nameRequired: 'Token name cannot be empty',
  nameTooLong: `Token name must not exceed ${API_TOKEN_NAME_MAX} characters`,
  nameControlCharacters: 'Token name must not contain control characters',
  expiryInvalid: 'Must be an ISO 8601 date and time',
  expiryPast: 'The expiry must be in the future',
  expiryTooFar: 'A token may last one year at most',
  teamsEmpty: 'Name at least one team, or leave teamIds out to cover every team',
  teamNotFound: 'Team not found',
  notFound: 'API token not found',
  created: 'API token created: copy it now, it will not be shown again',
  deleted: 'API token revoked',
  allDeleted: 'API tokens revoked',
  readOnly: 'This API token can only read',
  sessionOnly: 'An API token cannot be used for this: sign in instead',
} as const;

const tokenName = z
  .string({ error: apiTokenMessages.nameRequired })
  .check(
    z.trim(),
    z.minLength(1, apiTokenMessages.nameRequired),
    z.maxLength(API_TOKEN_NAME_MAX, { error: apiTokenMessages.nameTooLong, abort: true }),
    z.regex(NO_CONTROL_CHARACTERS, apiTokenMessages.nameControlCharacters),
  );

const expiresAt = z.pipe(
  z
    .string({ error: apiTokenMessages.expiryInvalid })
    .check(
      z.maxLength(40, { error: apiTokenMessages.expiryInvalid, abort: true }),
      z.iso.datetime({ offset: true, error: apiTokenMessages.expiryInvalid }),
    ),
  z.transform((value) => new Date(value)),
);

export const createApiTokenBody = z.object({
  name: tokenName,
  /** When it stops working: in the future, and one year from now at most. */
  expiresAt,
  access: z.enum(apiTokenAccess),
  /** The teams it covers, each one the caller sees; left out, whatever its user may see. */
  teamIds: z.optional(
    z.array(idSchema).check(z.minLength(1, apiTokenMessages.teamsEmpty), z.maxLength(100)),
  ),
});
export type CreateApiTokenBody = z.input<typeof createApiTokenBody>;

export const apiToken = z.object({
  id: z.int(),
  name: z.string(),
  access: z.enum(apiTokenAccess),
  /** The teams it is narrowed to (those that still exist); null: every team its user may see. */
  teams: z.nullable(z.array(z.object({ id: z.int(), name: z.string() }))),
  user: z.object({ id: z.int(), name: z.string(), email: z.string() }),
  createdAt: z.date(),
  expiresAt: z.date(),
  lastUsedAt: z.nullable(z.date()),
  /** The client address of its last use. */
  lastUsedFrom: z.nullable(z.string()),
});
export type ApiToken = z.infer<typeof apiToken>;

export const createApiTokenResponse = envelope(
  z.object({
    token: apiToken,
    /** The token itself, answered this once. */
    secret: z.string(),
  }),
);

/** The caller's own tokens; an Admin may name any user of the company, or ask for all of them. */
export const listApiTokensQuery = z.object({
  userId: z.optional(idSchema),
  all: z._default(z.stringbool(), false),
});
export const listApiTokensResponse = envelope(z.array(apiToken));

export const apiTokenIdParam = z.object({ id: idSchema });
export const deleteApiTokenResponse = emptyEnvelope;

/** Revokes every token of a user: the caller's own, or, for an Admin, any user's of the company. */
export const revokeAllApiTokensBody = z.object({ userId: z.optional(idSchema) });
export const revokeAllApiTokensResponse = envelope(z.object({ revoked: z.int() }));
