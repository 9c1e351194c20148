import { describe, expect, it } from 'vitest';
import type { z } from '../../src/api/contract/zod';
import { loginBody } from '../../src/api/contract/auth';
import { forgotPasswordBody } from '../../src/api/contract/users';
import {
  emailSchema,
  isStrongPassword,
  messages,
  mfaCodeSchema,
  newPasswordSchema,
  passwordChecks,
  personNameSchema,
  SPECIAL_CHARACTERS,
} from '../../src/api/contract/validation';
import { newPasswordFormSchema } from '../../src/components/new-password-fields';

/** The messages a schema gives for a value; [] when the value passes. */
const messagesOf = (schema: z.ZodMiniType, value: unknown): string[] => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

/** A valid password of exactly `length` characters (one of each class, padded with letters). */
const passwordOfLength = (length: number) => `Aa1!${'b'.repeat(length - 4)}`;

describe('new password', () => {
  it('requires a value', () => {
    expect(messagesOf(newPasswordSchema, '')).toEqual([messages.passwordRequired]);
    expect(messagesOf(newPasswordSchema, undefined)).toEqual([messages.passwordRequired]);
  });

  it('accepts 12 to 50 characters and names the bound it breaks', () => {
    expect(messagesOf(newPasswordSchema, passwordOfLength(11))).toEqual([
      messages.passwordTooShort,
    ]);
    expect(messagesOf(newPasswordSchema, passwordOfLength(12))).toEqual([]);
    expect(messagesOf(newPasswordSchema, passwordOfLength(50))).toEqual([]);
    expect(messagesOf(newPasswordSchema, passwordOfLength(51))).toEqual([messages.passwordTooLong]);
  });

  it.each([
    ['no digit', 'Abcdefghijk!'],
    ['no special character', 'Abcdefghijk1'],
    ['no uppercase letter', 'abcdefghij1!'],
    ['no lowercase letter', 'ABCDEFGHIJ1!'],
    ['a space', 'Abcdef ghi1!'],
    ['a tab', 'Abcdef\tghi1!'],
  ])('gives the combined message for %s', (_case, value) => {
    expect(value.length).toBeGreaterThanOrEqual(12);
    expect(messagesOf(newPasswordSchema, value)).toEqual([messages.passwordWeak]);
  });

  it.each([...SPECIAL_CHARACTERS])('accepts %s as the special character', (special) => {
    expect(messagesOf(newPasswordSchema, `Abcdefghij1${special}`)).toEqual([]);
  });

  it('knows exactly the special characters of the spec', () => {
    expect(SPECIAL_CHARACTERS).toBe('!@#$%^&*(),.?":{}|<>');
    // Other punctuation does not count.
    for (const other of ['-', '_', '+', '=', '~', '/', '[', ']', "'", ';'])
      expect(isStrongPassword(`Abcdefghij1${other}`)).toBe(false);
  });

  it('has no repeated-character rule', () => {
    expect(messagesOf(newPasswordSchema, 'AAAaaa111!!!')).toEqual([]);
  });
});

describe('new password with confirmation', () => {
  it('asks for both and then for them to match', () => {
    const strong = passwordOfLength(14);
    expect(messagesOf(newPasswordFormSchema, { password: '', confirmPassword: '' })).toEqual([
      messages.passwordRequired,
      messages.passwordRequired,
    ]);
    expect(
      messagesOf(newPasswordFormSchema, { password: strong, confirmPassword: `${strong}x` }),
    ).toEqual([messages.passwordMismatch]);
    expect(
      messagesOf(newPasswordFormSchema, { password: strong, confirmPassword: strong }),
    ).toEqual([]);
  });

  it('puts the mismatch on Confirm Password', () => {
    const result = newPasswordFormSchema.safeParse({
      password: passwordOfLength(12),
      confirmPassword: passwordOfLength(13),
    });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['confirmPassword']]);
  });
});

describe('password checklist', () => {
  const labels = passwordChecks.map((check) => check.label);
  const met = (value: string) =>
    passwordChecks.filter((check) => check.test(value)).map((check) => check.label);

  it('lists the rules in the spec order', () => {
    expect(labels).toEqual([
      'Minimum 12 characters',
      'Special character',
      'Contains number',
      'Uppercase letter',
      'Lowercase letter',
    ]);
  });

  it('marks each rule on its own', () => {
    expect(met('')).toEqual([]);
    expect(met('abcdefghijkl')).toEqual(['Minimum 12 characters', 'Lowercase letter']);
    expect(met('abcdefghijk')).toEqual(['Lowercase letter']);
    expect(met('?')).toEqual(['Special character']);
    expect(met('7')).toEqual(['Contains number']);
    expect(met('Q')).toEqual(['Uppercase letter']);
    expect(met('Aa1!bbbbbbbb')).toEqual(labels);
  });
});

describe('login email and password', () => {
  it('requires both and checks the address format', () => {
    expect(messagesOf(loginBody, { email: '', password: '' })).toEqual([
      messages.emailRequired,
      messages.passwordRequired,
    ]);
    expect(messagesOf(loginBody, { email: 'ada@example', password: 'x' })).toEqual([
      messages.emailFormat,
    ]);
  });

  it('trims and lowercases the address, and defaults Remember me to off', () => {
    expect(loginBody.parse({ email: '  Ada@Example.COM ', password: 'x' })).toEqual({
      email: 'ada@example.com',
      password: 'x',
      rememberMe: false,
    });
  });
});

describe('email schemas', () => {
  it.each([
    ['login and add-user messages', emailSchema(), messages.emailRequired, messages.emailFormat],
    [
      'forgot-password messages',
      forgotPasswordBody.shape.email,
      messages.forgotEmailRequired,
      messages.forgotEmailFormat,
    ],
  ])('uses the %s', (_name, schema, required, format) => {
    expect(messagesOf(schema, '')).toEqual([required]);
    expect(messagesOf(schema, '   ')).toEqual([required]);
    expect(messagesOf(schema, undefined)).toEqual([required]);
    for (const bad of ['ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com'])
      expect(messagesOf(schema, bad)).toEqual([format]);
    expect(messagesOf(schema, 'ada@example.com')).toEqual([]);
  });

  it('gives the forgot-password messages for the whole body', () => {
    expect(messagesOf(forgotPasswordBody, { email: '' })).toEqual([messages.forgotEmailRequired]);
    expect(messagesOf(forgotPasswordBody, { email: 'nope' })).toEqual([messages.forgotEmailFormat]);
  });
});

describe('one-time code', () => {
  it('requires a code of exactly six digits', () => {
    expect(messagesOf(mfaCodeSchema, '')).toEqual([messages.mfaRequired]);
    expect(messagesOf(mfaCodeSchema, undefined)).toEqual([messages.mfaRequired]);
    expect(messagesOf(mfaCodeSchema, '12345')).toEqual([messages.mfaLength]);
    expect(messagesOf(mfaCodeSchema, '1234567')).toEqual([messages.mfaLength]);
    expect(messagesOf(mfaCodeSchema, '12345a')).toEqual([messages.mfaLength]);
    expect(messagesOf(mfaCodeSchema, '123456')).toEqual([]);
    expect(messagesOf(mfaCodeSchema, '000000')).toEqual([]);
  });
});

describe('activation names', () => {
  it.each([
    ['First Name', messages.firstNameRequired],
    ['Last Name', messages.lastNameRequired],
  ])('%s is required, and blank counts as empty', (_field, message) => {
    const schema = personNameSchema(message);
    expect(message).toMatch(/^(First|Last) Name is Required$/);
    expect(messagesOf(schema, '')).toEqual([message]);
    expect(messagesOf(schema, '   ')).toEqual([message]);
    expect(messagesOf(schema, undefined)).toEqual([message]);
    expect(schema.parse('  Grace ')).toBe('Grace');
  });
});
