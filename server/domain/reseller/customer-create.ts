import { randomUUID } from 'node:crypto';
import type { createCustomerBody } from '../../../src/api/contract/reseller';
import { resellerMessages } from '../../../src/api/contract/reseller';
import type { z } from '../../../src/api/contract/zod';
import { isUniqueViolation } from '../../db/errors';
import { badRequest } from '../../http-error';
import type { ApiDeps } from '../../routes/deps';
import { userActor } from '../events/actor';
import { sendActivationLink } from '../identity/account-activation';
import { addAdmins, findAccounts } from '../imports/accounts';
import {
  CONSOLE_CUSTOMER_PREFIX,
  recordCompanyCreated,
  upsertCompanies,
} from '../imports/companies';
import type { Caller } from '../tenancy/access';
import { resellerScope } from './reseller-scope';

type Deps = Pick<ApiDeps, 'db' | 'clock' | 'config' | 'mailer' | 'background'>;
type NewCustomer = z.output<typeof createCustomerBody>;

const EMAIL_UNIQUE_INDEX = 'users_email_key';
const emailTaken = () => badRequest(resellerMessages.emailTaken, 'admin.email');

/**
 * A company of the caller's reseller and its first Admin, as a company import makes them (the same
 * writes, one company at a time), in one transaction: the Admin waits for activation and is
 * e-mailed the link once the rows are committed. The company's `company.create` and the Admin's
 * `user.invite` are logged in the new company's history with the reseller's user as the actor.
 * An e-mail that already signs in anywhere answers 400 naming `admin.email`, and nothing is
 * written.
 */
export async function createCustomer(
  deps: Deps,
  caller: Caller,
  input: NewCustomer,
): Promise<number> {
  const now = deps.clock.now();
  const { email } = input.admin;
  let companyId: number;
  try {
    companyId = await deps.db.transaction(async (tx) => {
      const { resellerId } = await resellerScope(tx, caller);
      const accounts = await findAccounts(tx, [email]);
      if (accounts.has(email)) throw emailTaken();
      const [company] = await upsertCompanies(
        tx,
        [
          {
            key: `${CONSOLE_CUSTOMER_PREFIX}${randomUUID()}`,
            current: undefined,
            values: { resellerId, name: input.name, logoUrl: input.logoUrl ?? null },
          },
        ],
        now,
      );
      const id = company!.id;
      const actor = await userActor(tx, caller.userId);
      await recordCompanyCreated(tx, { id, name: input.name }, actor, now);
      await addAdmins(
        tx,
        accounts,
        [{ companyId: id, ...input.admin, isReseller: false }],
        now,
        actor,
      );
      return id;
    });
  } catch (error) {
    // The same address taken by another request between the check and the insert.
    if (isUniqueViolation(error, EMAIL_UNIQUE_INDEX)) throw emailTaken();
    throw error;
  }
  deps.background.run('customer activation e-mail', () => sendActivationLink(deps, email));
  return companyId;
}
