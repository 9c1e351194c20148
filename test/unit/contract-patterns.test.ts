import fc from 'fast-check';
import { isSafe } from 'redos-detector';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginBody, mfaBody } from '../../src/api/contract/auth';
import {
  confirmEmailBody,
  forgotPasswordBody,
  registerBody,
  resetPasswordBody,
} from '../../src/api/contract/users';
import { EMAIL_PATTERN, NO_CONTROL_CHARACTERS } from '../../src/api/contract/validation';
import type { z } from '../../src/api/contract/zod';

/**
 * Every pattern of the contract runs on what anyone may send, most of it before sign-in: a pattern
 * that backtracks on a crafted value stops the whole process (one 1 MB e-mail address with the
 * earlier pattern took about 25 minutes). These hold the contract to two rules, checked on every
 * schema it exports: each pattern is free of super-linear backtracking, and on each string the
 * length check comes first and aborts, so no pattern or refinement ever sees an oversized value.
 */
const modules = import.meta.glob<Record<string, unknown>>('../../src/api/contract/*.ts', {
  eager: true,
});

interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  abort?: boolean;
}
interface SchemaLike {
  _zod: { def: { type: string; checks?: { _zod: { def: CheckDef } }[] } & Record<string, unknown> };
}

const isAbortingMax = (c: CheckDef) => c.check === 'max_length' && c.abort === true;
const LENGTH_CHECKED: CheckDef = { check: 'max_length', abort: true };

const isSchema = (value: unknown): value is SchemaLike =>
  typeof value === 'object' && value !== null && '_zod' in value;

/** Every string schema reachable from `root`, each with where it was found. */
function stringSchemas(root: unknown, where: string, seen = new Set<unknown>()) {
  const found: { where: string; checks: CheckDef[] }[] = [];
  const checksOf = (def: SchemaLike['_zod']['def']): CheckDef[] => [
    // A format schema (z.url(), z.iso.datetime()…) is its own first check.
    ...('format' in def ? [def as unknown as CheckDef] : []),
    ...(def.checks ?? []).map((c) => c._zod.def),
  ];
  // `guarded`: what reaches this schema has passed an aborting length check (a pipe's first half).
  const visit = (value: unknown, path: string, guarded: boolean) => {
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${path}[${i}]`, guarded));
    if (!isSchema(value) || seen.has(value)) return;
    seen.add(value);
    const def = value._zod.def;
    if (def.type === 'string') {
      const checks = checksOf(def);
      found.push({ where: path, checks: guarded ? [LENGTH_CHECKED, ...checks] : checks });
    }
    if (def.type === 'pipe' && isSchema(def.in)) {
      const first = def.in._zod.def;
      visit(def.in, path, guarded);
      const bounded = first.type === 'string' && checksOf(first).some(isAbortingMax);
      return visit(def.out, path, guarded || bounded);
    }
    for (const [key, child] of Object.entries(def)) {
      if (key === 'checks') continue;
      if (key === 'shape' && child && typeof child === 'object') {
        for (const [name, field] of Object.entries(child)) visit(field, `${path}.${name}`, false);
      } else visit(child, path, guarded);
    }
  };
  visit(root, where, false);
  return found;
}

const everyString = Object.entries(modules).flatMap(([file, exports]) =>
  Object.entries(exports).flatMap(([name, value]) => {
    const module = file.replace(/^.*\//, '');
    if (typeof value === 'function') {
      // Schema factories (emailSchema(), personNameSchema(…)): their default form.
      try {
        return stringSchemas(
          (value as (...args: unknown[]) => unknown)('x', 'y'),
          `${module} ${name}()`,
        );
      } catch {
        return [];
      }
    }
    return stringSchemas(value, `${module} ${name}`);
  }),
);

const patterns = [
  ...new Map(
    everyString
      .flatMap(({ where, checks }) =>
        checks.flatMap((c) =>
          c.format === 'regex' && c.pattern ? [{ where, pattern: c.pattern }] : [],
        ),
      )
      .map((p) => [String(p.pattern), p]),
  ).values(),
];

describe('the contract’s patterns', () => {
  it('are found (the walk reaches them)', () => {
    const sources = patterns.map((p) => p.pattern.source);
    expect(sources).toContain(EMAIL_PATTERN.source);
    expect(sources).toContain(NO_CONTROL_CHARACTERS.source);
  });

  it('cannot backtrack super-linearly', () => {
    const unsafe = patterns
      .filter(({ pattern }) => !isSafe(pattern).safe)
      .map(({ where, pattern }) => `${where}: ${pattern}`);
    expect(unsafe).toEqual([]);
  });

  it('never run before an aborting length check', () => {
    const late = everyString
      .filter(({ checks }) => {
        const firstRule = checks.findIndex(
          (c) => c.format === 'regex' || c.check === 'custom' || c.check === 'string_format',
        );
        if (firstRule === -1) return false;
        return !checks.slice(0, firstRule).some(isAbortingMax);
      })
      .map(({ where }) => where);
    const unbounded = everyString
      .filter(({ checks }) => checks.some((c) => c.check === 'max_length' && !c.abort))
      .filter(({ checks }) =>
        checks.some(
          (c) => c.format === 'regex' || c.check === 'custom' || c.check === 'string_format',
        ),
      )
      .map(({ where }) => where);
    expect({ late, unbounded }).toEqual({ late: [], unbounded: [] });
  });
});

describe('the public sign-in bodies, whatever the size of what is sent', () => {
  afterEach(() => vi.restoreAllMocks());

  // Told apart without a pattern: the spies below see every pattern run.
  const isOneCharacterClass = ({ source }: RegExp) =>
    source.startsWith('[') && source.indexOf(']') === source.length - 1;

  /** The longest value any pattern was run on while `parse` ran. */
  function longestMatched(parse: () => unknown): number {
    let longest = 0;
    // One character class with no quantifier (zod's own surrogate check when it counts code
    // points) looks at each character once: it cannot backtrack, whatever the length.
    const { test, exec } = RegExp.prototype;
    const record = (pattern: RegExp, input: unknown) => {
      if (typeof input !== 'string' || isOneCharacterClass(pattern)) return;
      longest = Math.max(longest, input.length);
    };
    vi.spyOn(RegExp.prototype, 'test').mockImplementation(function (this: RegExp, input: string) {
      record(this, input);
      return test.call(this, input);
    });
    vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, input: string) {
      record(this, input);
      return exec.call(this, input);
    });
    parse();
    vi.restoreAllMocks();
    return longest;
  }

  const bodies: [string, z.ZodMiniType][] = [
    ['login', loginBody],
    ['mfa', mfaBody],
    ['forgotPassword', forgotPasswordBody],
    ['register', registerBody],
    ['resetPassword', resetPasswordBody],
    ['confirmEmail', confirmEmailBody],
  ];
  const hostile = fc.oneof(
    fc.nat({ max: 1_000_000 }).map((n) => `a@${'.'.repeat(n)}@`),
    fc
      .tuple(fc.string({ maxLength: 8 }), fc.nat({ max: 200_000 }))
      .map(([piece, times]) => piece.repeat(times)),
  );

  it.each(bodies)('%s: no pattern sees more than 254 characters', (_name, body) => {
    fc.assert(
      fc.property(hostile, (value) => {
        const input = {
          email: value,
          password: value,
          code: value,
          firstName: value,
          lastName: value,
          id: 1,
          resetKey: value,
          rememberMe: false,
        };
        expect(longestMatched(() => body.safeParse(input))).toBeLessThanOrEqual(254);
      }),
      { numRuns: 25 },
    );
  });
});
