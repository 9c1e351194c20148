import { eq } from 'drizzle-orm';
import {
  resellerSettingsMessages,
  type ResellerSettings,
  type updateResellerSettingsBody,
} from '../../../src/api/contract/reseller-settings';
import type { z } from '../../../src/api/contract/zod';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { resellers } from '../../db/schema';
import { invalidFields } from '../../http-error';
import { requireAdmin, type Caller } from '../tenancy/access';
import { resellerScope } from './reseller-scope';
import { domainErrors, holdersOf, type TxtLookup } from './settings-domains';
import { domainsOf, readResellerSettings, replaceDomains } from './settings-records';

export type ResellerSettingsInput = z.output<typeof updateResellerSettingsBody>;

type Deps = { db: Db; clock: Clock; config: Config };

/**
 * `PUT /reseller/settings`, by an Admin of the reseller's staff: every field, and the whole list
 * of domains. A domain it holds stays as it is; a new one must pass the checks of
 * settings-domains.ts (the DNS ones asked before the transaction, which holds no lock while the
 * DNS answers). Answers the settings as saved.
 */
export async function saveResellerSettings(
  deps: Deps,
  lookup: TxtLookup,
  caller: Caller,
  input: ResellerSettingsInput,
): Promise<{ settings: ResellerSettings; domainsChanged: boolean }> {
  const { db, config } = deps;
  requireAdmin(caller, resellerSettingsMessages.adminsOnly);
  const { resellerId } = await resellerScope(db, caller);
  const held = new Set((await domainsOf(db, resellerId)).map((row) => row.host));
  const errors = await domainErrors(deps, lookup, { resellerId, hosts: input.domains, held });
  if (errors.length > 0) throw invalidFields(errors);

  const now = deps.clock.now();
  let domainsChanged: boolean;
  try {
    domainsChanged = await db.transaction(async (tx) => {
      await tx
        .update(resellers)
        .set({
          resellerName: input.brandName,
          logoUrl: input.logoUrl,
          tabLogoUrl: input.tabLogoUrl,
          primaryColor: input.primaryColor,
          email: input.supportEmail,
          orderUrlNewCustomer: input.orderUrls.newCustomer,
          orderUrlAccountChanges: input.orderUrls.accountChanges,
          updatedAt: now,
        })
        .where(eq(resellers.id, resellerId));
      return replaceDomains(
        tx,
        resellerId,
        { hosts: input.domains, source: 'settings', replaced: ['import', 'settings'] },
        now,
      );
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another reseller took one of the new hosts since the checks: named as they name it.
    const holders = await holdersOf(db, input.domains);
    throw invalidFields(
      input.domains.flatMap((host, index) => {
        const holder = holders.get(host);
        return holder !== undefined && holder !== resellerId
          ? [{ field: `domains.${index}`, message: resellerSettingsMessages.domainTaken }]
          : [];
      }),
    );
  }
  return { settings: await readResellerSettings(db, config, resellerId), domainsChanged };
}
