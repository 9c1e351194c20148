import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { resellerMessages } from '../../../src/api/contract/reseller';
import { vmRules } from '../../../src/api/contract/vms';
import type { Db, Tx } from '../../db/client';
import { companies, sessions, users } from '../../db/schema';
import { suspendedVms, virtualMachines } from '../../db/vm-schema';
import { conflict, notFound } from '../../http-error';
import { userActor } from '../events/actor';
import { recordEvent } from '../events/record';
import { interfacesBusy } from '../networks/interfaces';
import type { Caller } from '../tenancy/access';
import { customersOf, resellerScope } from './reseller-scope';
import { startOnResume, stopForSuspension, vmSnapshotColumns } from './suspension-power';

/**
 * A reseller suspends a customer and resumes it. Suspended, the company keeps everything (users,
 * VMs, networks, API tokens) but nobody of it may use anything: its sessions are revoked (their
 * event streams and consoles close at once, as for a deleted user), sign-in is refused with the
 * reseller's address, and its API tokens are refused while it lasts rather than revoked, so that
 * the customer's scripts work again on resume without new secrets. Its running VMs are stopped by
 * durable operations and remembered (`suspended_vms`); resuming starts those again.
 */

/** The customer, locked so that suspensions and resumes of one company come one at a time. */
async function lockedCustomer(tx: Tx, caller: Caller, companyId: number) {
  const scope = await resellerScope(tx, caller);
  const [company] = await tx
    .select({ id: companies.id, name: companies.name, suspendedAt: companies.suspendedAt })
    .from(companies)
    .where(and(eq(companies.id, companyId), customersOf(scope)))
    .for('update');
  if (!company) throw notFound(resellerMessages.customerNotFound);
  return company;
}

const companySubject = (company: { id: number; name: string }) => ({
  type: 'company' as const,
  id: company.id,
  name: company.name,
});

export async function suspendCustomer(db: Db, caller: Caller, companyId: number, now: Date) {
  await db.transaction(async (tx) => {
    const company = await lockedCustomer(tx, caller, companyId);
    if (company.suspendedAt) throw conflict(resellerMessages.alreadySuspended);
    await tx.update(companies).set({ suspendedAt: now }).where(eq(companies.id, company.id));

    // Every VM of the company is locked, not only the running ones: an operation that ends while
    // this commits then sees the suspension, and stops what it started (`holdSuspendedVm`).
    const vms = await tx
      .select(vmSnapshotColumns)
      .from(virtualMachines)
      .where(and(eq(virtualMachines.companyId, company.id), isNull(virtualMachines.deletedAt)))
      .for('update');
    const actor = await userActor(tx, caller.userId);
    await recordEvent(tx, {
      companyId: company.id,
      actor,
      subject: companySubject(company),
      action: 'company.suspend',
      outcome: 'succeeded',
      at: now,
    });
    for (const vm of vms) {
      // One whose interface is changing is stopped once that ends, by the reconciler.
      if (vmRules.canStop(vm.status) && !(await interfacesBusy(tx, vm.id))) {
        await stopForSuspension(tx, vm, actor, now);
      }
    }
    // The revocations close the sessions' event streams and consoles (migration 0009's trigger).
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(
          inArray(
            sessions.userId,
            tx.select({ id: users.id }).from(users).where(eq(users.companyId, company.id)),
          ),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
        ),
      );
  });
}

/**
 * Users may sign in again, API tokens work again, and the VMs the suspension stopped that still
 * exist and are stopped start again. 409 while one of them is still changing state (its stop is
 * under way): starting it then would race the stop.
 */
export async function resumeCustomer(db: Db, caller: Caller, companyId: number, now: Date) {
  await db.transaction(async (tx) => {
    const company = await lockedCustomer(tx, caller, companyId);
    if (!company.suspendedAt) throw conflict(resellerMessages.notSuspended);
    const stopped = await tx
      .select(vmSnapshotColumns)
      .from(suspendedVms)
      .innerJoin(virtualMachines, eq(virtualMachines.id, suspendedVms.vmId))
      .where(and(eq(suspendedVms.companyId, company.id), isNull(virtualMachines.deletedAt)))
      .for('update', { of: virtualMachines });
    const startable = [];
    for (const vm of stopped) {
      if (vmRules.isTransitional(vm.status) || (await interfacesBusy(tx, vm.id))) {
        throw conflict(resellerMessages.vmsChanging);
      }
      // A stop that failed left it running; one that went wrong since is the customer's to see.
      if (vmRules.canStart(vm.status)) startable.push(vm);
    }
    await tx.update(companies).set({ suspendedAt: null }).where(eq(companies.id, company.id));
    await tx.delete(suspendedVms).where(eq(suspendedVms.companyId, company.id));
    const actor = await userActor(tx, caller.userId);
    await recordEvent(tx, {
      companyId: company.id,
      actor,
      subject: companySubject(company),
      action: 'company.resume',
      outcome: 'succeeded',
      at: now,
    });
    for (const vm of startable) await startOnResume(tx, vm, actor, now);
  });
}
