import type { AddressInfo } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import { resellers } from '../../../server/db/schema';
import { virtualMachines } from '../../../server/db/vm-schema';
import { operations } from '../../../server/jobs/schema';
import { createUser, staffCompanyOf } from './seed';
import { bearer, signIn } from './sign-in';
import { testWebhookDispatcher } from './webhook-world';
import { startVmWorld } from './vm-world';

/**
 * The VM world's company as a reseller's customer: the reseller (support address
 * `help@cloudy.test`) has a staff company with a staff user, and the world's other company is a
 * customer of another reseller whose staff has one user too. The server listens (event streams,
 * consoles) and a webhook delivery worker is driven by hand.
 */

export const SUPPORT_EMAIL = 'help@cloudy.test';
export const staffEmails = { staff: 'rita@cloudy.test', staffB: 'bob@other.test' } as const;
type Staff = keyof typeof staffEmails;

export async function startSuspensionWorld() {
  const w = await startVmWorld({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const db = w.server.database.db;
  await w.server.app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(w.server.app.server.address() as AddressInfo).port}`;

  const a = await staffCompanyOf(db, w.companyId, 'suspension');
  await db.update(resellers).set({ email: SUPPORT_EMAIL }).where(eq(resellers.id, a.resellerId));
  const b = await staffCompanyOf(db, w.other.companyId, 'suspension');
  const staffIds = {
    staff: (
      await createUser(db, {
        companyId: a.staffCompanyId,
        email: staffEmails.staff,
        firstName: 'Rita',
        lastName: 'Reseller',
        isReseller: true,
      })
    ).id,
    staffB: (
      await createUser(db, {
        companyId: b.staffCompanyId,
        email: staffEmails.staffB,
        isAdmin: true,
        isReseller: true,
      })
    ).id,
  };
  const staffTokens = {} as Record<Staff, string>;
  for (const who of Object.keys(staffEmails) as Staff[]) {
    staffTokens[who] = (await signIn(w.server, staffEmails[who], { rememberMe: true })).token;
  }

  /** One API call with a bearer (a session's token or an API token's secret); status and body. */
  async function callWith(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
    const res = await w.server.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(token),
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }

  const dispatcher = testWebhookDispatcher(w.server, { timeoutMs: 5_000 });

  return {
    ...w,
    baseUrl,
    resellers: { a, b },
    staffIds,
    /** Suspends or resumes a company as a reseller's staff user. */
    reseller: (who: Staff, verb: 'suspend' | 'resume', companyId: number) =>
      callWith(staffTokens[who], 'POST', `/reseller/companies/${verb}/${companyId}`),
    callAs: (who: Staff, method: 'GET' | 'POST', url: string, payload?: object) =>
      callWith(staffTokens[who], method, url, payload),
    callWith,
    dispatcher,
    /** The company's VMs' statuses by name. */
    async statuses(companyId = w.companyId) {
      const rows = await db
        .select({ name: virtualMachines.name, status: virtualMachines.status })
        .from(virtualMachines)
        .where(eq(virtualMachines.companyId, companyId))
        .orderBy(asc(virtualMachines.id));
      return Object.fromEntries(rows.map((row) => [row.name, row.status]));
    },
    /** Every operation of the company: kind, VM and who asked, in order. */
    async operationsOf(companyId = w.companyId) {
      return db
        .select({
          kind: operations.kind,
          vmId: operations.vmId,
          status: operations.status,
          requestedBy: operations.requestedBy,
        })
        .from(operations)
        .where(eq(operations.companyId, companyId))
        .orderBy(asc(operations.id));
    },
  };
}

export type SuspensionWorld = Awaited<ReturnType<typeof startSuspensionWorld>>;
