import { z } from 'zod';
import { envelope } from './envelope';
import { user } from './users';
import { emailSchema, messages, mfaCodeSchema } from './validation';

export const loginBody = z.object({
  email: emailSchema(),
  password: z
    .string({ error: messages.passwordRequired })
    .min(1, messages.passwordRequired)
    .max(200),
  rememberMe: z.boolean().default(false),
});
export type LoginBody = z.input<typeof loginBody>;

export const sessionData = z.object({ user });
export const loginResponse = envelope(sessionData);
export const mfaBody = z.object({ code: mfaCodeSchema });
export const mfaResponse = envelope(sessionData);
export const checkResponse = envelope(sessionData);

/** Messages the console reacts to. */
export const authMessages = {
  invalidCredentials: 'Invalid email or password',
  invalidCode: 'Invalid MFA code',
  retriesExhausted: 'Retries exhausted',
  codeExpired: 'MFA code expired',
  notAuthenticated: 'Not authenticated',
  verificationRequired: 'MFA verification required',
  tooManyRequests: 'Too many requests, please try again later',
  forgotPasswordSent:
    "If an account with that email exists, you'll receive a password reset link shortly. Please check your inbox and spam folder.",
  invalidResetLink: 'This link is invalid or has expired',
} as const;
