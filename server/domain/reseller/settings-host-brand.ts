import { eq, sql } from 'drizzle-orm';
import { HEX_COLOR } from '../../../src/api/contract/brand-color';
import type { HostBrand } from '../../../src/api/contract/reseller-settings';
import type { Db } from '../../db/client';
import { preparedOnce } from '../../db/prepared';
import { resellerDomains, resellers } from '../../db/schema';

/** What the console's pages show before sign-in on a reseller's domain. */
export interface HostBrandPage {
  brand: HostBrand;
  /** `#rrggbb`, or null for the product's own colour. */
  primaryColor: string | null;
}

const hostBrandQuery = (db: Db) =>
  preparedOnce(db, 'host-brand', (name) =>
    db
      .select({
        brandName: resellers.resellerName,
        name: resellers.name,
        logoUrl: resellers.logoUrl,
        tabLogoUrl: resellers.tabLogoUrl,
        primaryColor: resellers.primaryColor,
      })
      .from(resellerDomains)
      .innerJoin(resellers, eq(resellers.id, resellerDomains.resellerId))
      .where(eq(resellerDomains.host, sql.placeholder('host')))
      .prepare(name),
  );

/**
 * The brand of the reseller whose domain `host` is (lower-case, without its port); undefined for
 * any other host. Its name is the brand name, else the reseller's own: on its own domain the
 * reseller is never "Launchpad".
 */
export async function findHostBrand(db: Db, host: string): Promise<HostBrandPage | undefined> {
  const [row] = await hostBrandQuery(db).execute({ host });
  if (!row) return undefined;
  return {
    brand: { name: row.brandName ?? row.name, logoUrl: row.logoUrl, tabLogoUrl: row.tabLogoUrl },
    // Checked when it was written; checked again here, as it goes into a stylesheet.
    primaryColor: row.primaryColor && HEX_COLOR.test(row.primaryColor) ? row.primaryColor : null,
  };
}
