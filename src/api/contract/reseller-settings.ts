import { z } from './zod';
import { envelope } from './envelope';
import { HEX_COLOR, MIN_CONTRAST, brandColorMessages, brandContrast } from './brand-color';
import { NO_CONTROL_CHARACTERS, emailSchema } from './validation';

/**
 * The reseller's own settings (`GET/PUT /reseller/settings`, its staff's Admins): the brand its
 * customers see (name, logo, tab logo, primary colour), the support e-mail they are told to write
 * to, its order forms, and its domains: host names on which the console shows the brand before
 * sign-in and builds the e-mailed links (docs/reseller-domains.md).
 */

export const BRAND_NAME_MAX = 100;
export const DOMAINS_PER_RESELLER_MAX = 10;

export const resellerSettingsMessages = {
  brandNameTooLong: `Brand name must not exceed ${BRAND_NAME_MAX} characters`,
  brandNameControlCharacters: 'Brand name must not contain control characters',
  urlFormat: 'Must be an http(s) URL',
  domainFormat: 'Enter a host name such as console.example.com',
  domainDuplicate: 'Each domain can be listed once',
  domainTooMany: `A reseller may have ${DOMAINS_PER_RESELLER_MAX} domains at most`,
  /** The product's own address: it stays unbranded. */
  domainIsProducts: "This is the console's own address",
  domainTaken: 'This domain belongs to another reseller',
  /** The DNS TXT record that proves the domain is the reseller's was not found. */
  domainUnverified: (recordName: string, value: string) =>
    `Add a TXT record ${recordName} with the value ${value}, then save again`,
  adminsOnly: "Only Admins can change the reseller's settings",
  saved: 'Settings saved',
} as const;

const blankAsNull = <T extends z.ZodMiniType>(schema: T) =>
  z.pipe(
    z.transform((v): unknown => (typeof v === 'string' && v.trim() === '' ? null : v)),
    z.nullable(schema),
  );

// Parsed by URL rather than z.url, as reseller.ts does (zod's URL check stays off /login's path).
const httpUrl = z.string().check(
  z.trim(),
  z.maxLength(2000, { error: resellerSettingsMessages.urlFormat, abort: true }),
  z.refine(
    (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
    resellerSettingsMessages.urlFormat,
  ),
);

export const primaryColorSchema = z.string({ error: brandColorMessages.format }).check(
  z.trim(),
  z.maxLength(7, { error: brandColorMessages.format, abort: true }),
  z.regex(HEX_COLOR, { error: brandColorMessages.format, abort: true }),
  z.superRefine((value, ctx) => {
    const contrast = brandContrast(value);
    if (contrast < MIN_CONTRAST)
      ctx.addIssue({ code: 'custom', message: brandColorMessages.contrast(contrast) });
  }),
);

/**
 * The shape of a host name (no scheme, port or path; lower-case): dot-separated labels. A pattern
 * that also held each label's rules backtracks super-linearly (test/unit/contract-patterns):
 * `isHostName` checks them apart.
 */
export const HOST_NAME = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;
const HOST_NAME_MAX = 253;
/**
 * A host name: labels of 1-63 characters that neither start nor end with `-`, the last one
 * starting with a letter (so no IP address), 253 characters in all.
 */
export const isHostName = (value: string): boolean => {
  if (value.length > HOST_NAME_MAX || !HOST_NAME.test(value)) return false;
  const labels = value.split('.');
  return (
    labels.every((label) => label.length <= 63 && !label.startsWith('-') && !label.endsWith('-')) &&
    /^[a-z]/.test(labels.at(-1)!)
  );
};
const domain = z
  .string({ error: resellerSettingsMessages.domainFormat })
  .check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(HOST_NAME_MAX, { error: resellerSettingsMessages.domainFormat, abort: true }),
    z.refine(isHostName, resellerSettingsMessages.domainFormat),
  );
export const domainsSchema = z.array(domain).check(
  z.maxLength(DOMAINS_PER_RESELLER_MAX, { error: resellerSettingsMessages.domainTooMany }),
  z.refine((list) => new Set(list).size === list.length, resellerSettingsMessages.domainDuplicate),
);

export const resellerSettings = z.object({
  /** The tab title and the name in the console instead of "Launchpad"; null: the product's. */
  brandName: z.nullable(z.string()),
  logoUrl: z.nullable(z.string()),
  tabLogoUrl: z.nullable(z.string()),
  /** `#rrggbb`; null: the product's own. */
  primaryColor: z.nullable(z.string()),
  /** Where the customers' support messages go and whom a suspended customer is told to write. */
  supportEmail: z.string(),
  orderUrls: z.object({
    newCustomer: z.nullable(z.string()),
    accountChanges: z.nullable(z.string()),
  }),
  domains: z.array(
    z.object({
      host: z.string(),
      /** `import`: set by the operator; `settings`: added here after the DNS check. */
      source: z.enum(['import', 'settings']),
    }),
  ),
  /**
   * The TXT record a domain needs before it can be added here: at `_launchpad.<host>`
   * (`<recordPrefix>.<host>`; the prefix is `_launchpad`), this value (one per reseller). Skipped
   * when the operator turns the check off.
   */
  domainVerification: z.object({ recordPrefix: z.string(), value: z.string() }),
});
export type ResellerSettings = z.infer<typeof resellerSettings>;
export const resellerSettingsResponse = envelope(resellerSettings);

/** `PUT /reseller/settings`: every field; `domains` is the whole list. */
export const updateResellerSettingsBody = z.object({
  brandName: blankAsNull(
    z.string().check(
      z.trim(),
      z.maxLength(BRAND_NAME_MAX, {
        error: resellerSettingsMessages.brandNameTooLong,
        abort: true,
      }),
      z.regex(NO_CONTROL_CHARACTERS, resellerSettingsMessages.brandNameControlCharacters),
    ),
  ),
  logoUrl: blankAsNull(httpUrl),
  tabLogoUrl: blankAsNull(httpUrl),
  primaryColor: blankAsNull(primaryColorSchema),
  supportEmail: emailSchema(),
  orderUrls: z.object({ newCustomer: blankAsNull(httpUrl), accountChanges: blankAsNull(httpUrl) }),
  domains: domainsSchema,
});
export type UpdateResellerSettingsBody = z.input<typeof updateResellerSettingsBody>;
export const updateResellerSettingsResponse = resellerSettingsResponse;

/**
 * What the server writes into the pages it sends for a reseller's domain, before anyone signs in
 * (`<meta name="launchpad-brand">`, JSON): the sign-in screens draw the logo from it.
 */
export const hostBrand = z.object({
  name: z.nullable(z.string()),
  logoUrl: z.nullable(z.string()),
  tabLogoUrl: z.nullable(z.string()),
});
export type HostBrand = z.infer<typeof hostBrand>;
