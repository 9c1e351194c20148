import { z } from './zod';
import { emptyEnvelope, envelope, idSchema, pageQuery, paged } from './envelope';
import { user } from './auth';
import { userSortColumns } from './search-values';
import { roleIdSchema } from './roles';
import { emailSchema, messages, newPasswordSchema, personNameSchema } from './validation';

export const userRow = z.object({
  id: z.int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  createdAt: z.date(),
  isAdmin: z.boolean(),
});
export type UserRow = z.infer<typeof userRow>;

export const listUsersQuery = z.extend(pageQuery, {
  sortColumn: z._default(z.enum(userSortColumns), 'name'),
  sortDescending: z._default(z.stringbool(), false),
  /** Leaves out the members of this team (the team wizard's Available Users). */
  excludeTeamId: z.optional(idSchema),
});
export type ListUsersQuery = z.output<typeof listUsersQuery>;
export const listUsersResponse = envelope(paged(userRow));
export type UserPage = z.infer<typeof listUsersResponse>['data'];

export const meResponse = envelope(user);

export const emailBody = z.object({ email: emailSchema() });
/** Forgot password uses its own messages (spec section 5). */
export const forgotPasswordBody = z.object({
  email: emailSchema(messages.forgotEmailRequired, messages.forgotEmailFormat),
});
export const registerBody = emailBody;

export const tokenParam = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(200, { abort: true })),
});

export const resetPasswordBody = z.object({
  id: idSchema,
  password: newPasswordSchema,
  resetKey: z.optional(z.string().check(z.maxLength(200, { abort: true }))),
});
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

export const confirmEmailBody = z.extend(resetPasswordBody, {
  firstName: personNameSchema(messages.firstNameRequired),
  lastName: personNameSchema(messages.lastNameRequired),
});
export type ConfirmEmailBody = z.input<typeof confirmEmailBody>;

export const updatePasswordBody = z.object({
  currentPassword: z
    .string({ error: messages.passwordRequired })
    .check(z.minLength(1, messages.passwordRequired), z.maxLength(200, { abort: true })),
  password: newPasswordSchema,
});

export const userMessages = {
  created: 'Completed creating user:',
  updated: 'User updated successfully',
  deleted: 'User deleted',
  notFound: 'User not found',
  emailTaken: 'A user with this email already exists',
  cannotDeleteSelf: 'You cannot delete yourself',
  teamNotFound: 'Team not found',
  firstNameEmpty: 'First name cannot be empty',
  lastNameEmpty: 'Last name cannot be empty',
  firstNameSpecial: 'First name cannot contain special characters',
  lastNameSpecial: 'Last name cannot contain special characters',
} as const;

const id = idSchema;
export const userIdParam = z.object({ id });

/** `POST /users/create`: an invitation. roleId 1 makes a company Admin; other roles apply per team. */
export const createUserBody = z.object({
  email: emailSchema(),
  roleId: roleIdSchema,
  teamIds: z._default(z.array(id).check(z.maxLength(100)), []),
});
export type CreateUserBody = z.input<typeof createUserBody>;
export const createUserResponse = envelope(z.object({ id: z.int() }));

/** Letters (any script), spaces, apostrophes and hyphens: no digits or special characters. */
const NAME_PATTERN = /^[\p{L}\p{M}' -]+$/u;
const editedName = (empty: string, special: string) =>
  z
    .string({ error: empty })
    .check(
      z.trim(),
      z.minLength(1, { error: empty, abort: true }),
      z.maxLength(100, { abort: true }),
      z.regex(NAME_PATTERN, special),
    );

export const editUserBody = z.object({
  id,
  firstName: editedName(userMessages.firstNameEmpty, userMessages.firstNameSpecial),
  lastName: editedName(userMessages.lastNameEmpty, userMessages.lastNameSpecial),
});
export type EditUserBody = z.input<typeof editUserBody>;
export const editUserResponse = emptyEnvelope;

/** `GET /users/details/{id}`. `activated` is false until the invitation has been accepted. */
export const userDetails = z.object({
  id: z.int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  createdAt: z.date(),
  isAdmin: z.boolean(),
  activated: z.boolean(),
});
export type UserDetails = z.infer<typeof userDetails>;
export const userDetailsResponse = envelope(userDetails);

/** User team row (spec section 3): one team membership. roleId 1 for an Admin. */
export const userTeamRow = z.object({
  id: z.int(),
  name: z.string(),
  roleId: z.int(),
});
export type UserTeamRow = z.infer<typeof userTeamRow>;
export const userTeamsQuery = z.extend(pageQuery, {
  rowsPerPage: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 6),
});
export type UserTeamsQuery = z.output<typeof userTeamsQuery>;
export const userTeamsResponse = envelope(paged(userTeamRow));
export type UserTeamPage = z.infer<typeof userTeamsResponse>['data'];

export const deleteUserResponse = emptyEnvelope;
