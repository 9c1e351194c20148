import { z } from './zod';
import { envelope } from './envelope';
import { sessionData } from './auth';
import { messages, MFA_CODE_LENGTH } from './validation';

/**
 * The second step of the sign-in beyond the e-mailed code: an authenticator app (TOTP) with its
 * recovery codes, and the company's policy that every user must have an app or a passkey. Kept
 * apart from `auth.ts`: the sign-in page's download carries none of it.
 */

/**
 * What the one-time-code page asks for after the password: `email`, the code the sign-in e-mailed
 * (the spec's page); `totp`, the authenticator app's code (no e-mail is sent), or one of the
 * user's recovery codes.
 */
export const secondFactorKinds = ['email', 'totp'] as const;
export type SecondFactorKind = (typeof secondFactorKinds)[number];

export const secondStep = z.object({
  secondFactor: z.enum(secondFactorKinds),
  /** The user has a passkey or security key, which the page may offer instead of the code. */
  passkey: z.boolean(),
});
export type SecondStep = z.infer<typeof secondStep>;

/** `POST /auth/login`: the user, and which second step the one-time-code page asks for. */
export const loginAnswer = envelope(z.extend(sessionData, secondStep.shape));

/** A recovery code as shown: ten letters and digits in two groups, `k7m2p-x6qhd`. */
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{5}-?[a-z2-7]{5}$/;
export const RECOVERY_CODE_COUNT = 10;

/** A recovery code as typed: spaces dropped, case ignored, the dash optional. */
export const normalizeRecoveryCode = (value: string) => value.replace(/\s+/g, '').toLowerCase();

export const secondFactorMessages = {
  /** The login's answer when the second step is the app's code (no e-mail is sent). */
  appCodeAsked: 'Enter the code from your authenticator app',
  recoveryCodeFormat: 'A recovery code has 10 letters and digits, like k7m2p-x6qhd',
  /** The app's code of a time step that was already used (replayed, or typed twice). */
  codeReused: 'This code has already been used. Wait for the next code in your app.',
  totpAlreadyEnrolled:
    'An authenticator app is already set up. Turn it off first to set up another.',
  totpNotPending: 'Start setting up the authenticator app first',
  totpNotEnrolled: 'No authenticator app is set up',
  totpInvalidCode: 'Invalid code. Enter the 6-digit code your app shows now.',
  totpEnabled: 'Authenticator app turned on',
  totpDisabled: 'Authenticator app turned off',
  /** Turning the app off would leave a user of a policy company with no strong second factor. */
  totpNeededByPolicy:
    'Your company requires an authenticator app or a passkey: add a passkey before turning the app off.',
  /** 403 on everything else for a user of a policy company who has neither. */
  enrolmentRequired:
    'Your company requires an authenticator app or a passkey. Set one up to continue.',
  policyAdminsOnly: "Only your company's Admins can change the sign-in policy",
  /** An Admin may not require what they could not themselves do. */
  policyNeedsOwnFactor:
    'Set up an authenticator app or a passkey for yourself before requiring one for everyone',
  policySaved: 'Sign-in policy saved',
} as const;

/**
 * The body of `POST /auth/mfa` as the server reads it: the e-mailed code, the app's code, or a
 * recovery code.
 */
export const secondStepBody = z.object({
  code: z.string({ error: messages.mfaRequired }).check(
    z.trim(),
    z.minLength(1, { error: messages.mfaRequired, abort: true }),
    z.maxLength(32, { error: messages.mfaLength, abort: true }),
    z.refine(
      (value) =>
        new RegExp(`^\\d{${MFA_CODE_LENGTH}}$`).test(value) ||
        RECOVERY_CODE_PATTERN.test(normalizeRecoveryCode(value)),
      messages.mfaLength,
    ),
  ),
});

/** A recovery code field (the one-time-code page's "Use a recovery code"). */
export const recoveryCodeBody = z.object({
  code: z.string({ error: messages.mfaRequired }).check(
    z.trim(),
    z.minLength(1, { error: 'Recovery code is required', abort: true }),
    z.maxLength(32, { error: secondFactorMessages.recoveryCodeFormat, abort: true }),
    z.refine(
      (value) => RECOVERY_CODE_PATTERN.test(normalizeRecoveryCode(value)),
      secondFactorMessages.recoveryCodeFormat,
    ),
  ),
});

/** An authenticator app's code (6 digits). */
const appCode = z
  .string({ error: 'Code is required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'Code is required', abort: true }),
    z.maxLength(6, { error: 'The code has 6 digits', abort: true }),
    z.regex(/^\d{6}$/, 'The code has 6 digits'),
  );

/**
 * `GET /auth/secondFactor`: the caller's second factors, for the one-time-code page (a session
 * still waiting for its second step may ask) and Profile → Security.
 */
export const secondFactorStatus = z.extend(secondStep, {
  /** When the authenticator app was confirmed; null without one. */
  totpEnabledAt: z.nullable(z.date()),
  /** Recovery codes not used yet (0 without an app). */
  recoveryCodesLeft: z.int(),
  /** The company requires an authenticator app or a passkey of every user. */
  companyRequires: z.boolean(),
  /**
   * The company requires one and the user has neither: everything but setting one up (and
   * signing out) is refused until they have.
   */
  enrolmentRequired: z.boolean(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatus>;
export const secondFactorStatusResponse = envelope(secondFactorStatus);

/**
 * `POST /auth/totp/enroll`: a new secret for the signed-in user's app, pending until a first code
 * confirms it (asking again replaces a pending one). `otpauthUri` is what the QR code holds.
 */
export const totpEnrollResponse = envelope(
  z.object({ secret: z.string(), otpauthUri: z.string() }),
);

/** `POST /auth/totp/confirm`: the app's first code. */
export const totpConfirmBody = z.object({ code: appCode });
/** Ten single-use recovery codes, shown this once (the server keeps only their hashes). */
export const totpConfirmResponse = envelope(z.object({ recoveryCodes: z.array(z.string()) }));

/** `POST /auth/totp/disable`: the password and a code (the app's, or a recovery code). */
export const totpDisableBody = z.object({
  password: z
    .string({ error: messages.passwordRequired })
    .check(z.minLength(1, messages.passwordRequired), z.maxLength(200, { abort: true })),
  code: secondStepBody.shape.code,
});

/** `GET` / `PUT /company/secondFactorPolicy`. */
export const secondFactorPolicy = z.object({
  /** Every user of the company must sign in with an authenticator app or a passkey. */
  requireStrongSecondFactor: z.boolean({
    error: 'requireStrongSecondFactor must be true or false',
  }),
});
export type SecondFactorPolicy = z.infer<typeof secondFactorPolicy>;
export const secondFactorPolicyResponse = envelope(secondFactorPolicy);
