import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, resellers, users } from '../../db/schema';
import { webhookDisabledMail } from '../../mail/templates';
import type { Mailer } from '../../mail/transport';
import { DEFAULT_BRAND, resellerDomainsColumn } from '../identity/users-repository';
import { mailSiteOf } from '../reseller/settings-mail-site';
import type { Subscription } from './delivery-records';

/**
 * Tells each of the company's active Admins, under their reseller's brand and from its domain
 * when it has one (`mailSiteOf`), that it stopped.
 */
export async function mailAdminsOfDisabled(
  db: Db,
  mailer: Mailer,
  input: { subscription: Subscription; eventId: number; reason: string; publicUrl: string },
): Promise<void> {
  const { subscription } = input;
  const admins = await db
    .select({
      email: users.email,
      brand: resellers.resellerName,
      reseller: {
        brandName: resellers.resellerName,
        name: resellers.name,
        domains: resellerDomainsColumn,
      },
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(resellers, eq(resellers.id, companies.resellerId))
    .where(
      and(
        eq(users.companyId, subscription.companyId),
        eq(users.isAdmin, true),
        isNotNull(users.activatedAt),
      ),
    );
  for (const admin of admins) {
    const site = mailSiteOf({ publicUrl: input.publicUrl }, admin.reseller);
    await mailer.send({
      ...webhookDisabledMail({
        to: admin.email,
        brand: admin.brand ?? DEFAULT_BRAND,
        url: subscription.url,
        eventId: input.eventId,
        reason: input.reason,
        consoleUrl: site.publicUrl,
      }),
      fromName: site.fromName,
    });
  }
}
