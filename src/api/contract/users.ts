import { z } from 'zod';
import { envelope, pageQuery, paged } from './envelope';
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
  id: z.coerce.number().int().positive(),
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
