import { hashPassword, verifyPassword } from '../../server/domain/identity/passwords';
import { users } from '../../server/db/schema';
import { startTestServer } from '../../test/server/support/harness';
import { createCompany, createUser, TEST_PASSWORD } from '../../test/server/support/seed';
import { bearer, signIn } from '../../test/server/support/sign-in';
import { medianMs, report } from './stats';

const USERS_PER_COMPANY = 10_000;

/**
 * Sign-in costs and the Users list at 10,000 users a company, through the real app (app.inject)
 * on PGlite, or on PostgreSQL when DATABASE_URL is set.
 */
async function main() {
  const server = await startTestServer();
  try {
    const db = server.database.db;
    const hash = await hashPassword(TEST_PASSWORD);
    const { company } = await createCompany(db);
    const { company: other } = await createCompany(db);
    for (const companyId of [company.id, other.id]) {
      for (let start = 0; start < USERS_PER_COMPANY; start += 1000) {
        await db.insert(users).values(
          Array.from({ length: 1000 }, (_, i) => ({
            companyId,
            email: `user-${companyId}-${start + i}@example.com`,
            firstName: `First${start + i}`,
            lastName: `Last${(start + i) % 997}`,
            passwordHash: hash,
            activatedAt: new Date(),
          })),
        );
      }
    }
    const me = await createUser(db, { companyId: company.id, email: 'bench@example.com' });
    const { token } = await signIn(server, me.email);
    const list = (query: string) => () =>
      server.app
        .inject({ method: 'GET', url: `/api/v1/users/list?${query}`, headers: bearer(token) })
        .then((res) => {
          if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
        });

    report([
      ['argon2id hash', await medianMs(() => hashPassword(TEST_PASSWORD), 15)],
      ['argon2id verify', await medianMs(() => verifyPassword(hash, TEST_PASSWORD), 15)],
      ['login + code check (round trip)', await medianMs(() => signIn(server, me.email), 15)],
      ['users list, page 1, by name', await medianMs(list('page=1&rowsPerPage=10'))],
      [
        'users list, page 500, email desc',
        await medianMs(list('page=500&sortColumn=email&sortDescending=true')),
      ],
      ['users list, search "last12"', await medianMs(list('search=last12'))],
      ['users list, search with no match', await medianMs(list('search=nobody-at-all'))],
    ]);
  } finally {
    await server.close();
  }
}

await main();
