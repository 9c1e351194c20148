import { z } from './zod';
import { emptyEnvelope, envelope, idSchema, pageQuery, paged } from './envelope';
import { limitUse } from './limits';
import { customerSortColumns } from './search-values';
import { NO_CONTROL_CHARACTERS, emailSchema, messages, personNameSchema } from './validation';

/**
 * The reseller's console (`/api/v1/reseller/…`): for users of a reseller's staff company
 * (`isReseller`); anyone else gets 404 on every path. A reseller's customers are the companies
 * of that reseller, not its own staff company.
 */

export const CUSTOMER_NAME_MAX = 200;

export const resellerMessages = {
  customerNotFound: 'Customer not found',
  nameRequired: 'Company name cannot be empty',
  nameTooLong: `Company name must not exceed ${CUSTOMER_NAME_MAX} characters`,
  nameControlCharacters: 'Company name must not contain control characters',
  logoUrlFormat: 'Logo URL must be an http(s) URL',
  /** The Admin's e-mail already signs in somewhere: one account per address in the product. */
  emailTaken: 'A user with this email already exists',
  customerCreated: 'Customer created',
  customerSuspended: 'Customer suspended',
  customerResumed: 'Customer resumed',
  alreadySuspended: 'This customer is already suspended',
  notSuspended: 'This customer is not suspended',
  /** A VM of the customer is still stopping (or otherwise changing): resume once it is done. */
  vmsChanging: "This customer's VMs are still changing state; try again in a minute",
} as const;

/** `suspended`: its users cannot sign in, its credentials are refused, its VMs are stopped. */
export const customerStates = ['active', 'suspended'] as const;
export type CustomerState = (typeof customerStates)[number];

const companyName = z
  .string({ error: resellerMessages.nameRequired })
  .check(
    z.trim(),
    z.minLength(1, resellerMessages.nameRequired),
    z.maxLength(CUSTOMER_NAME_MAX, { error: resellerMessages.nameTooLong, abort: true }),
    z.regex(NO_CONTROL_CHARACTERS, resellerMessages.nameControlCharacters),
  );

/** Absent, null or empty: no logo. */
const logoUrl = z.pipe(
  z.transform((v): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v)),
  z.nullish(
    // Parsed by the browser's URL rather than z.url, as webhooks.ts does: zod's own URL check
    // would join the sign-in page's first download, where zod is.
    z.string().check(
      z.trim(),
      z.maxLength(2000, { error: resellerMessages.logoUrlFormat, abort: true }),
      z.refine(
        (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
        resellerMessages.logoUrlFormat,
      ),
    ),
  ),
);

/** One of the reseller's companies, as its Customers list shows it. */
export const customerRow = z.object({
  id: z.int(),
  name: z.string(),
  logoUrl: z.nullable(z.string()),
  /** Admins of the company, activated or still invited. */
  admins: z.int(),
  users: z.int(),
  vmsRunning: z.int(),
  vmsTotal: z.int(),
  /** Of the company's VMs, whatever their state: what it holds. */
  vcpus: z.int(),
  ramGb: z.int(),
  publicIps: z.int(),
  /** Hours its VMs existed in the current calendar month (UTC) so far: usage.ts's `vmExistedHours`. */
  vmHoursThisMonth: z.number(),
  // A Date, like every answer's moments: the console revives ISO strings before parsing.
  createdAt: z.date(),
  state: z.enum(customerStates),
  /** Since when it is suspended; null while active. */
  suspendedAt: z.nullable(z.date()),
});
export type CustomerRow = z.infer<typeof customerRow>;

export const listCustomersQuery = z.extend(pageQuery, {
  sortColumn: z._default(z.enum(customerSortColumns), 'name'),
  sortDescending: z._default(z.stringbool(), false),
});
export type ListCustomersQuery = z.input<typeof listCustomersQuery>;
export const listCustomersResponse = envelope(paged(customerRow));
export type CustomerPage = z.infer<typeof listCustomersResponse>['data'];

/** `POST /reseller/companies/create`: the company import's shape, one company at a time. */
export const createCustomerBody = z.object({
  name: companyName,
  logoUrl,
  admin: z.object({
    email: emailSchema(),
    firstName: personNameSchema(messages.firstNameRequired),
    lastName: personNameSchema(messages.lastNameRequired),
  }),
});
export type CreateCustomerBody = z.input<typeof createCustomerBody>;
export const createCustomerResponse = envelope(z.object({ companyId: z.int() }));

export const customerIdParam = z.object({ id: idSchema });

export const customerAdmin = z.object({
  id: z.int(),
  /** "First Last", or the e-mail while no name is known. */
  name: z.string(),
  email: z.string(),
  /** False until the Admin has followed the activation link. */
  activated: z.boolean(),
});
export type CustomerAdmin = z.infer<typeof customerAdmin>;

/**
 * `GET /reseller/companies/details/{id}`: the row's figures, the company's Admins and the limits
 * its reseller set for it, each with what the company holds against it (in its region, or in all
 * regions for an all-regions limit).
 */
export const customerDetailsResponse = envelope(
  z.extend(customerRow, { adminList: z.array(customerAdmin), limits: z.array(limitUse) }),
);
export type CustomerDetails = z.infer<typeof customerDetailsResponse>['data'];

/**
 * `POST /reseller/companies/suspend/{id}`: the customer's running VMs stop, its users' sessions
 * end and its API tokens are refused until `POST /reseller/companies/resume/{id}`, which starts
 * again the VMs that were running. 409 when it is already in that state.
 */
export const suspendCustomerResponse = emptyEnvelope;
export const resumeCustomerResponse = emptyEnvelope;

/**
 * `GET /reseller/companies/activity/{id}`: the customer's activity as its Admins see it at
 * `GET /activity/list` (the same query and answer), for its reseller's staff.
 */
export { listActivityQuery as customerActivityQuery } from './activity';
export { listActivityResponse as customerActivityResponse } from './activity';
