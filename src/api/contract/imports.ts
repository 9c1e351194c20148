import { z } from 'zod';
import { envelope } from './envelope';
import { NO_CONTROL_CHARACTERS, emailSchema, messages, personNameSchema } from './validation';

/**
 * The operator's bulk imports (`POST /imports/{kind}` with `{ items }`, or `npm run import`).
 * Items are upserted by `externalId`; a file is applied whole or not at all.
 */
export const importKinds = ['distributer', 'reseller', 'company'] as const;
export type ImportKind = (typeof importKinds)[number];

export const IMPORT_MAX_ITEMS = 5000;

/** A missing or empty id names its own field (`resellerExternalId is required`). */
const CONTROL_CHARACTERS = 'Must not contain control characters';
const externalIdOf = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(100)
    .regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS);
const externalId = externalIdOf('externalId');
const name = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(200)
  .regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS);
const url = z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL' }).max(2000);
/** An optional field left empty (CSV exports write "") counts as absent. */
const blankAsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema);
const optionalUrl = blankAsAbsent(url.nullish());

export const distributerItem = z.object({ externalId, name, email: emailSchema() });
export const resellerItem = z.object({
  externalId,
  distributerExternalId: externalIdOf('distributerExternalId'),
  name,
  email: emailSchema(),
  resellerName: blankAsAbsent(
    z.string().trim().min(1).max(100).regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS).nullish(),
  ),
  logoUrl: optionalUrl,
  tabLogoUrl: optionalUrl,
  orderUrls: z.object({ newCustomer: optionalUrl, accountChanges: optionalUrl }).nullish(),
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
export type DistributerItem = z.output<typeof distributerItem>;
export type ResellerItem = z.output<typeof resellerItem>;
export type CompanyItem = z.output<typeof companyItem>;

/** The body is checked item by item so that every bad row is reported with its index. */
export const importBody = z.object({
  items: z.array(z.unknown()).min(1, 'items must not be empty').max(IMPORT_MAX_ITEMS),
});

export const importResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  items: z.array(z.object({ externalId: z.string(), id: z.number().int() })),
});
export type ImportResult = z.infer<typeof importResult>;
export const importResponse = envelope(importResult);
