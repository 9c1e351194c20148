import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { companies, users } from '../../db/schema';
import { OPERATOR, type Actor } from '../events/actor';
import { recordEvent } from '../events/record';
import { ROLE } from '../../../src/api/contract/roles';
import { roleNamer, userName } from '../tenancy/team-events';
import { inBatches } from './outcome';
import { flagDuplicates, importMessages, type RowErrors } from './validate';

/** An e-mail already used by an account, and the externalId of that account's company. */
export type Accounts = Map<string, { id: number; companyExternalId: string }>;

export async function findAccounts(tx: Tx, emails: readonly string[]): Promise<Accounts> {
  if (emails.length === 0) return new Map();
  const rows = await tx
    .select({ id: users.id, email: users.email, companyExternalId: companies.externalId })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(inArray(users.email, [...new Set(emails)]));
  return new Map(rows.map(({ email, ...account }) => [email, account]));
}

/**
 * An item's account e-mail (a company's admin, a reseller's staff) must be new, or already a user
 * of that same company: e-mails are logins, unique across the product, so one person cannot be an
 * account in two companies. Two items of one file cannot claim the same e-mail either.
 */
export function checkAccountEmails(
  entries: readonly { index: number; email: string; companyExternalId: string }[],
  field: string,
  accounts: Accounts,
  errors: RowErrors,
) {
  flagDuplicates(
    entries.map(({ index, email }) => ({ index, value: email })),
    field,
    importMessages.duplicateEmail,
    errors,
  );
  for (const { index, email, companyExternalId } of entries) {
    const account = accounts.get(email);
    if (account && account.companyExternalId !== companyExternalId) {
      errors.add(index, field, importMessages.emailTaken);
    }
  }
}

export interface AdminAccount {
  companyId: number;
  email: string;
  firstName?: string;
  lastName?: string;
  isReseller: boolean;
}

/**
 * Creates each company's Admin whose e-mail has no account yet: not activated, no password,
 * waiting for the activation link. An existing account (checked to be of the same company) is
 * left as it is, and an Admin added by an earlier file under another e-mail stays an Admin.
 * Answers the e-mails of the accounts created. Logs `user.invite` for each, by the Operator
 * unless told otherwise (imports run with the operator token or the CLI; a reseller creating a
 * customer is the actor of its Admin's): the callers call this last, after every other write, as
 * the log requires.
 */
export async function addAdmins(
  tx: Tx,
  accounts: Accounts,
  admins: readonly AdminAccount[],
  now: Date,
  actor: Actor = OPERATOR,
): Promise<Set<string>> {
  const missing = admins.filter((admin) => !accounts.has(admin.email));
  const created: {
    id: number;
    companyId: number;
    email: string;
    firstName: string;
    lastName: string;
  }[] = [];
  await inBatches(missing, async (batch) => {
    const rows = await tx
      .insert(users)
      .values(
        batch.map((admin) => ({
          companyId: admin.companyId,
          email: admin.email,
          firstName: admin.firstName ?? '',
          lastName: admin.lastName ?? '',
          isAdmin: true,
          isReseller: admin.isReseller,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning({
        id: users.id,
        companyId: users.companyId,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
      });
    created.push(...rows);
  });
  // By company: the log's commit locks are then taken in one order by every import.
  created.sort((a, b) => a.companyId - b.companyId || a.id - b.id);
  const role = (await roleNamer(tx))(ROLE.admin);
  for (const user of created) {
    await recordEvent(tx, {
      companyId: user.companyId,
      actor,
      subject: { type: 'user', id: user.id, name: userName(user) },
      action: 'user.invite',
      outcome: 'succeeded',
      detail: { email: user.email, role },
      at: now,
    });
  }
  return new Set(missing.map((admin) => admin.email));
}
