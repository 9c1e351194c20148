import { z } from './zod';

/** The rules of spec section 5, shared by the console forms and the server. */

// Control characters are named on purpose: they are what these patterns keep out. The domain is a
// label, then `.label` once or more, no label holding a dot: every character has one place in the
// pattern, so a failing match costs time in proportion to the input (the earlier `[^@]+\.[^@]+`
// did not: a domain of n dots tried n² splits). `test/unit/contract-patterns.test.ts` holds every
// pattern of the contract to this.
export const EMAIL_PATTERN =
  // eslint-disable-next-line no-control-regex
  /^[^\s@\u0000-\u001f\u007f]+@[^\s@.\u0000-\u001f\u007f]+(?:\.[^\s@.\u0000-\u001f\u007f]+)+$/;
/** The longest e-mail address SMTP carries (RFC 5321's path less its brackets). */
export const EMAIL_MAX = 254;
/** Control characters (NUL above all, which PostgreSQL cannot store) have no place in a name. */
// eslint-disable-next-line no-control-regex
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;
export const SPECIAL_CHARACTERS = '!@#$%^&*(),.?":{}|<>';
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 50;
export const MFA_CODE_LENGTH = 6;

export const messages = {
  emailRequired: 'Email is required',
  emailFormat: 'Entered value does not match email format',
  forgotEmailRequired: 'An email address is required',
  forgotEmailFormat: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 12 characters long',
  passwordTooLong: 'Password must not exceed 50 characters',
  passwordWeak:
    'Password must be at least 12 characters long, contain at least one number, one special character, no spaces, no repeating characters, and at least one uppercase letter.',
  passwordMismatch: "Your passwords don't match. Please try again.",
  firstNameRequired: 'First Name is Required',
  lastNameRequired: 'Last Name is Required',
  mfaRequired: 'MFA code is required',
  mfaLength: 'MFA code must be 6 digits',
  missingResetToken:
    'You seem to be missing your Reset Token in your URL. Please try to open this reset link from your email again.',
} as const;

const hasSpecial = (value: string) => [...value].some((c) => SPECIAL_CHARACTERS.includes(c));

/** The live checklist under every new-password field, in the spec's order. */
export const passwordChecks = [
  { label: 'Minimum 12 characters', test: (v: string) => v.length >= PASSWORD_MIN },
  { label: 'Special character', test: hasSpecial },
  { label: 'Contains number', test: (v: string) => /\d/.test(v) },
  { label: 'Uppercase letter', test: (v: string) => /[A-Z]/.test(v) },
  { label: 'Lowercase letter', test: (v: string) => /[a-z]/.test(v) },
] as const;

export const PASSWORD_CONFIRMED_LABEL = 'Password confirmed';

export const isStrongPassword = (v: string) =>
  v.length >= PASSWORD_MIN &&
  v.length <= PASSWORD_MAX &&
  !/\s/.test(v) &&
  passwordChecks.every((check) => check.test(v));

export const emailSchema = (
  required: string = messages.emailRequired,
  format: string = messages.emailFormat,
) =>
  z.pipe(
    z.string({ error: required }).check(
      z.trim(),
      z.minLength(1, { error: required, abort: true }),
      // Aborts: no pattern ever runs on an oversized value.
      z.maxLength(EMAIL_MAX, { error: format, abort: true }),
      z.regex(EMAIL_PATTERN, format),
    ),
    z.transform((v) => v.toLowerCase()),
  );

/** A new password: required, 12 to 50 characters, then the combined strength message. */
export const newPasswordSchema = z
  .string({ error: messages.passwordRequired })
  .check(
    z.minLength(1, { error: messages.passwordRequired, abort: true }),
    z.minLength(PASSWORD_MIN, { error: messages.passwordTooShort, abort: true }),
    z.maxLength(PASSWORD_MAX, { error: messages.passwordTooLong, abort: true }),
    z.refine(isStrongPassword, messages.passwordWeak),
  );

export const mfaCodeSchema = z
  .string({ error: messages.mfaRequired })
  .check(
    z.trim(),
    z.minLength(1, { error: messages.mfaRequired, abort: true }),
    z.maxLength(MFA_CODE_LENGTH, { error: messages.mfaLength, abort: true }),
    z.regex(/^\d{6}$/, messages.mfaLength),
  );

export const personNameSchema = (required: string) =>
  z
    .string({ error: required })
    .check(
      z.trim(),
      z.minLength(1, required),
      z.maxLength(100, { abort: true }),
      z.regex(NO_CONTROL_CHARACTERS, 'Names must not contain control characters'),
    );
