import { z } from 'zod';
import { emptyEnvelope, envelope, idSchema, pageQuery, paged } from './envelope';
import { roleIdSchema } from './roles';
import { emailSchema, messages, newPasswordSchema, personNameSchema } from './validation';

/** The signed-in user, with the branding of their company and reseller. */
export const user = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  createdAt: z.date(),
  isAdmin: z.boolean(),
  isReseller: z.boolean(),
  forcePasswordReset: z.boolean(),
  /** A reset token, present only after the code check of a user whose password must be reset. */
  resetKey: z.string().nullable(),
  resellerEmail: z.string().nullable(),
  companyName: z.string(),
  logoUrl: z.string().nullable(),
  resellerName: z.string().nullable(),
  tabLogoUrl: z.string().nullable(),
  /** The reseller's order forms (Order Services); both null for anybody but the reseller's staff. */
  orderUrls: z.object({
    newCustomer: z.string().nullable(),
    accountChanges: z.string().nullable(),
  }),
});
export type User = z.infer<typeof user>;

export const userRow = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  createdAt: z.date(),
  isAdmin: z.boolean(),
});
export type UserRow = z.infer<typeof userRow>;

export const userSortColumns = ['name', 'email', 'createdAt'] as const;
export const listUsersQuery = pageQuery.extend({
  sortColumn: z.enum(userSortColumns).default('name'),
  sortDescending: z.stringbool().default(false),
  /** Leaves out the members of this team (the team wizard's Available Users). */
  excludeTeamId: idSchema.optional(),
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

export const tokenParam = z.object({ token: z.string().min(1).max(200) });

export const resetPasswordBody = z.object({
  id: idSchema,
  password: newPasswordSchema,
  resetKey: z.string().max(200).optional(),
});
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

export const confirmEmailBody = resetPasswordBody.extend({
  firstName: personNameSchema(messages.firstNameRequired),
  lastName: personNameSchema(messages.lastNameRequired),
});
export type ConfirmEmailBody = z.input<typeof confirmEmailBody>;

export const updatePasswordBody = z.object({
  currentPassword: z
    .string({ error: messages.passwordRequired })
    .min(1, messages.passwordRequired)
    .max(200),
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
  teamIds: z.array(id).max(100).default([]),
});
export type CreateUserBody = z.input<typeof createUserBody>;
export const createUserResponse = envelope(z.object({ id: z.number().int() }));

/** Letters (any script), spaces, apostrophes and hyphens: no digits or special characters. */
const NAME_PATTERN = /^[\p{L}\p{M}' -]+$/u;
const editedName = (empty: string, special: string) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, { error: empty, abort: true })
    .max(100)
    .regex(NAME_PATTERN, special);

export const editUserBody = z.object({
  id,
  firstName: editedName(userMessages.firstNameEmpty, userMessages.firstNameSpecial),
  lastName: editedName(userMessages.lastNameEmpty, userMessages.lastNameSpecial),
});
export type EditUserBody = z.input<typeof editUserBody>;
export const editUserResponse = emptyEnvelope;

/** `GET /users/details/{id}`. `activated` is false until the invitation has been accepted. */
export const userDetails = z.object({
  id: z.number().int(),
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
  id: z.number().int(),
  name: z.string(),
  roleId: z.number().int(),
});
export type UserTeamRow = z.infer<typeof userTeamRow>;
export const userTeamsQuery = pageQuery.extend({
  rowsPerPage: z.coerce.number().int().min(1).max(100).default(6),
});
export type UserTeamsQuery = z.output<typeof userTeamsQuery>;
export const userTeamsResponse = envelope(paged(userTeamRow));
export type UserTeamPage = z.infer<typeof userTeamsResponse>['data'];

export const deleteUserResponse = emptyEnvelope;
