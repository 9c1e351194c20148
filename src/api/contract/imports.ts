import { z } from './zod';
import { envelope } from './envelope';
import { LIMITS_PER_RESELLER_MAX, limitEntry } from './limits';
import { domainsSchema, primaryColorSchema } from './reseller-settings';
import { NO_CONTROL_CHARACTERS, emailSchema, messages, personNameSchema } from './validation';

/**
 * The operator's bulk imports (`POST /imports/{kind}` with `{ items }`, or `npm run import`).
 * Items are upserted by `externalId`; a file is applied whole or not at all.
 */
// `distributer` (in the path, the CLI and `distributerExternalId`) is the spec's spelling, kept
// for clients; the code and the database say distributor.
export const importKinds = ['distributer', 'reseller', 'company'] as const;
export type ImportKind = (typeof importKinds)[number];

export const IMPORT_MAX_ITEMS = 5000;

/** A missing or empty id names its own field (`resellerExternalId is required`). */
const CONTROL_CHARACTERS = 'Must not contain control characters';
const externalIdOf = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .check(
      z.trim(),
      z.minLength(1, `${field} is required`),
      z.maxLength(100, { abort: true }),
      z.regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS),
    );
const externalId = externalIdOf('externalId');
const name = z
  .string({ error: 'Name is required' })
  .check(
    z.trim(),
    z.minLength(1, 'Name is required'),
    z.maxLength(200, { abort: true }),
    z.regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS),
  );
// The length first: the URL is parsed only once it is known to be short.
const url = z.pipe(
  z.string().check(z.maxLength(2000, { abort: true })),
  z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL' }),
);
/** An optional field left empty (CSV exports write "") counts as absent. */
const blankAsAbsent = <T extends z.ZodMiniType>(schema: T) =>
  z.pipe(
    z.transform((v): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v)),
    schema,
  );
const optionalUrl = blankAsAbsent(z.nullish(url));

export const distributorItem = z.object({ externalId, name, email: emailSchema() });
export const resellerItem = z.object({
  externalId,
  distributerExternalId: externalIdOf('distributerExternalId'),
  name,
  email: emailSchema(),
  resellerName: blankAsAbsent(
    z.nullish(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1),
          z.maxLength(100, { abort: true }),
          z.regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS),
        ),
    ),
  ),
  logoUrl: optionalUrl,
  tabLogoUrl: optionalUrl,
  orderUrls: z.nullish(z.object({ newCustomer: optionalUrl, accountChanges: optionalUrl })),
  /**
   * What all the reseller's customers together may hold. When present (`[]` included), the
   * reseller's whole set of limits; absent or null, the stored set stays as it is.
   */
  limits: z.nullish(z.array(limitEntry).check(z.maxLength(LIMITS_PER_RESELLER_MAX))),
  /** `#rrggbb`, checked for contrast as in the reseller's settings. */
  primaryColor: blankAsAbsent(z.nullish(primaryColorSchema)),
  /**
   * Host names that show the reseller's brand before sign-in, trusted as the operator gives them
   * (no DNS check). When present (`[]` included), the reseller's imported domains are replaced.
   */
  domains: z.nullish(domainsSchema),
});
export const companyItem = z.object({
  externalId,
  resellerExternalId: externalIdOf('resellerExternalId'),
  name,
  logoUrl: optionalUrl,
  admin: z.object({
    email: emailSchema(),
    firstName: personNameSchema(messages.firstNameRequired),
    lastName: personNameSchema(messages.lastNameRequired),
  }),
});
export type DistributorItem = z.output<typeof distributorItem>;
export type ResellerItem = z.output<typeof resellerItem>;
export type CompanyItem = z.output<typeof companyItem>;

/** The body is checked item by item so that every bad row is reported with its index. */
export const importBody = z.object({
  items: z
    .array(z.unknown())
    .check(z.minLength(1, 'items must not be empty'), z.maxLength(IMPORT_MAX_ITEMS)),
});

export const importResult = z.object({
  created: z.int(),
  updated: z.int(),
  items: z.array(z.object({ externalId: z.string(), id: z.int() })),
});
export type ImportResult = z.infer<typeof importResult>;
export const importResponse = envelope(importResult);
