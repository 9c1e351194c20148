import { randomInt } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { Logger } from 'pino';
import { isStrongPassword } from '../src/api/contract/validation';
import type { Config } from './config';
import type { Db } from './db/client';
import { companies, distributors, resellers, users } from './db/schema';
import { hashPassword } from './domain/identity/passwords';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A password that satisfies the password rule: 20 random characters plus one of each class. */
export function randomPassword(): string {
  const pick = (chars: string) => chars[randomInt(chars.length)]!;
  let body = '';
  for (let i = 0; i < 20; i += 1) body += pick(ALPHABET);
  return `${body}${pick('ABCDEFGHJKLMNPQRSTUVWXYZ')}${pick('abcdefghijkmnopqrstuvwxyz')}${pick('23456789')}${pick('!@#$%^&*')}`;
}

/**
 * On an empty database, creates the first distributor, reseller, company and its Admin, so a fresh
 * checkout can be signed into. A generated password is printed once and must be changed at first login.
 */
export async function bootstrap(options: {
  db: Db;
  config: Pick<Config, 'bootstrapAdminEmail' | 'bootstrapAdminPassword'>;
  logger: Pick<Logger, 'info' | 'warn'>;
}) {
  const { db, config, logger } = options;
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return;

  const generated = config.bootstrapAdminPassword === undefined;
  const password = config.bootstrapAdminPassword ?? randomPassword();
  if (!isStrongPassword(password)) {
    throw new Error(
      'BOOTSTRAP_ADMIN_PASSWORD must be 12-50 characters with a digit, a special character, an uppercase and a lowercase letter, and no spaces',
    );
  }
  const passwordHash = await hashPassword(password);

  await db.transaction(async (tx) => {
    const [distributor] = await tx
      .insert(distributors)
      .values({ externalId: 'bootstrap', name: 'Launchpad', email: config.bootstrapAdminEmail })
      .returning({ id: distributors.id });
    const [reseller] = await tx
      .insert(resellers)
      .values({
        externalId: 'bootstrap',
        distributorId: distributor!.id,
        name: 'Launchpad',
        email: config.bootstrapAdminEmail,
      })
      .returning({ id: resellers.id });
    const [company] = await tx
      .insert(companies)
      .values({ externalId: 'bootstrap', resellerId: reseller!.id, name: 'Launchpad' })
      .returning({ id: companies.id });
    await tx.insert(users).values({
      companyId: company!.id,
      email: config.bootstrapAdminEmail,
      firstName: 'Admin',
      lastName: 'User',
      passwordHash,
      isAdmin: true,
      forcePasswordReset: generated,
      activatedAt: new Date(),
    });
  });

  if (generated) {
    // Printed once, on purpose: there is no other way to learn it. It must be changed at first login.
    logger.warn(
      `Created the first Admin ${config.bootstrapAdminEmail} with the password ${password} (shown once; a new password is required at first login)`,
    );
  } else {
    logger.info({ email: config.bootstrapAdminEmail }, 'created the first Admin');
  }
}
