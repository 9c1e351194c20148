import { z } from './zod';
import { envelope } from './envelope';
import { emailSchema, messages, mfaCodeSchema } from './validation';

/**
 * The signed-in user, with the branding of their company and reseller, as the session check and
 * the code check answer it.
 */
export const user = z.object({
  id: z.int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  createdAt: z.date(),
  isAdmin: z.boolean(),
  isReseller: z.boolean(),
  forcePasswordReset: z.boolean(),
  /** A reset token, present only after the code check of a user whose password must be reset. */
  resetKey: z.nullable(z.string()),
  resellerEmail: z.nullable(z.string()),
  companyName: z.string(),
  logoUrl: z.nullable(z.string()),
  resellerName: z.nullable(z.string()),
  tabLogoUrl: z.nullable(z.string()),
  /** The reseller's primary colour (`#rrggbb`), null for the product's own. */
  primaryColor: z.nullable(z.string()),
  /** The reseller's order forms (Order Services); both null for anybody but the reseller's staff. */
  orderUrls: z.object({
    newCustomer: z.nullable(z.string()),
    accountChanges: z.nullable(z.string()),
  }),
});
export type User = z.infer<typeof user>;

export const loginBody = z.object({
  email: emailSchema(),
  password: z
    .string({ error: messages.passwordRequired })
    .check(z.minLength(1, messages.passwordRequired), z.maxLength(200, { abort: true })),
  rememberMe: z._default(z.boolean(), false),
});
export type LoginBody = z.input<typeof loginBody>;

export const sessionData = z.object({ user });
export const mfaBody = z.object({ code: mfaCodeSchema });
export const mfaResponse = envelope(sessionData);
export const checkResponse = envelope(sessionData);
/** `POST /auth/refreshAuth`: the renewed session's user and its new expiry. */
export const refreshResponse = envelope(z.extend(sessionData, { expiresAt: z.date() }));
/** `POST /auth/shouldResetPassword`: whether the caller must set a new password first. */
export const shouldResetResponse = envelope(z.object({ shouldReset: z.boolean() }));

/** Messages the console reacts to. */
export const authMessages = {
  invalidCredentials: 'Invalid email or password',
  invalidCode: 'Invalid MFA code',
  retriesExhausted: 'Retries exhausted',
  codeExpired: 'MFA code expired',
  notAuthenticated: 'Not authenticated',
  crossSite: 'Requests that use the session cookie must come from the console',
  verificationRequired: 'MFA verification required',
  tooManyRequests: 'Too many requests, please try again later',
  /** The imports answer only the operator's token (401 otherwise; 403 when none is configured). */
  operatorTokenRequired: 'Operator token required',
  operatorTokenUnset: 'Imports are disabled: OPERATOR_TOKEN is not set',
  forgotPasswordSent:
    "If an account with that email exists, you'll receive a password reset link shortly. Please check your inbox and spam folder.",
  invalidResetLink: 'This link is invalid or has expired',
  /** Too many failed logins for one address (the per-address throttle; 429). */
  accountThrottled:
    'Too many failed sign-in attempts for this account. Please try again later or reset your password.',
  /** The session's code was already accepted; sign in again for a new one (400). */
  codeAlreadyUsed: 'MFA code already used',
  codeSent: 'A sign-in code has been sent to your email',
  authenticated: 'Authenticated',
  loggedOut: 'Logged out',
  passwordReset: 'Your password has been successfully reset.',
  accountActivated: 'Account activated',
  /** The neutral answer of POST /users/register (resend the activation link). */
  activationLinkSent:
    "If that address belongs to an account waiting for activation, you'll receive a new activation link shortly. Please check your inbox and spam folder.",
  currentPasswordIncorrect: 'Current password is incorrect',
  passwordUpdated: 'Your password has been updated.',
  /** A forced reset must really replace the password (400 on `password`). */
  passwordUnchanged: 'The new password must be different from the current one',
  sessionRenewed: 'Session renewed',
  /** A verified session of a user who must set a new password first (403). */
  passwordResetRequired: 'You must reset your password before continuing',
  /**
   * The user's company is suspended by its reseller (403): at sign-in once the password is right,
   * and to its API tokens. `email` is the reseller's support address.
   */
  accountSuspended: (email: string) => `This account is suspended. Contact ${email} for help.`,
} as const;
