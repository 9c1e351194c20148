import { and, eq, gt, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { usedConsoleTickets } from '../../db/console-schema';
import { sessions, users } from '../../db/schema';
import { HttpError } from '../../http-error';
import {
  readConsoleTicket,
  ticketNonceHash,
  type TicketHolder,
} from '../../providers/console-ticket';
import { driverKindOf } from '../../providers/registry';
import type { Caller } from '../tenancy/access';
import { apiTokenCaller, findLiveApiTokenById } from '../identity/api-tokens';
import { findLiveSession } from '../identity/sessions';
import { requireVmPermission } from '../vms/vm-access';

/** Who watches which VM's console, as its ticket was checked. */
export interface ConsoleViewer {
  /** The session or API token the console's link was given to: the console lives as long. */
  holder: TicketHolder;
  userId: number;
  companyId: number;
  vmId: number;
  /** The VM's team when the console opened: moved to another, the console closes. */
  teamId: number | null;
  providerRef: string;
  /** The engine (the driver's kind) of the VM's provider. */
  kind: string;
}

/** The permission the console route asks for: the same is asked again for the open console. */
const CONSOLE_PERMISSION = 'vm.operate';

/** The VM if the caller may use its console now, or undefined (gone, or no longer theirs). */
async function reachableVm(db: Db, caller: Caller, vmId: number) {
  try {
    const { vm } = await requireVmPermission(db, caller, vmId, CONSOLE_PERMISSION);
    return vm.providerRef ? vm : undefined;
  } catch (error) {
    if (error instanceof HttpError) return undefined;
    throw error;
  }
}

/**
 * Who a ticket's holder acts as now, or undefined when the holder is gone. A session's ticket is
 * good only in the browser of that session (its cookie says which); an API token's link is itself
 * the pass, as long as the token is live and may change things.
 */
async function holderCaller(
  db: Db,
  holder: TicketHolder,
  userId: number,
  sessionToken: string | undefined,
  now: Date,
): Promise<(Caller & { companyId: number }) | undefined> {
  if (holder.kind === 'apiToken') {
    const token = await findLiveApiTokenById(db, holder.id, now);
    if (!token || token.suspended || token.userId !== userId || token.access !== 'readWrite') {
      return undefined;
    }
    return token.mustResetPassword ? undefined : apiTokenCaller(token);
  }
  if (!sessionToken) return undefined;
  const session = await findLiveSession(db, sessionToken, now);
  if (
    !session?.verified ||
    session.mustResetPassword ||
    session.sessionId !== holder.id ||
    session.userId !== userId
  ) {
    return undefined;
  }
  return session;
}

/**
 * The viewer of a console ticket, or undefined when it is refused: forged or expired, its holder
 * gone (`holderCaller`), for a VM the user may no longer operate or that is not running, for an
 * engine `accepts` does not serve, or already used. With `consume` (the websocket's upgrade) the
 * ticket is used up, once across every server process; without (the page's load) it stays good.
 */
export async function admitConsoleViewer(
  db: Db,
  input: {
    key: Buffer;
    ticket: string;
    sessionToken: string | undefined;
    now: Date;
    accepts: (kind: string) => boolean;
    consume: boolean;
  },
): Promise<ConsoleViewer | undefined> {
  const ticket = readConsoleTicket(input.key, input.ticket, input.now);
  if (!ticket) return undefined;
  const who = await holderCaller(db, ticket.holder, ticket.userId, input.sessionToken, input.now);
  if (!who) return undefined;
  const vm = await reachableVm(db, who, ticket.vmId);
  if (vm?.status !== 'Running') return undefined;
  const kind = await driverKindOf(db, vm.providerId);
  if (!kind || !input.accepts(kind)) return undefined;
  const nonceHash = ticketNonceHash(ticket);
  if (input.consume) {
    const [used] = await db
      .insert(usedConsoleTickets)
      .values({ nonceHash, expiresAt: new Date(ticket.expiresAt) })
      .onConflictDoNothing()
      .returning({ nonceHash: usedConsoleTickets.nonceHash });
    if (!used) return undefined;
  } else {
    const [used] = await db
      .select({ nonceHash: usedConsoleTickets.nonceHash })
      .from(usedConsoleTickets)
      .where(eq(usedConsoleTickets.nonceHash, nonceHash));
    if (used) return undefined;
  }
  return {
    holder: ticket.holder,
    userId: ticket.userId,
    companyId: who.companyId,
    vmId: vm.id,
    teamId: vm.teamId,
    providerRef: vm.providerRef!,
    kind,
  };
}

/**
 * Whether an open console may stay open, and if not why: `sessionEnded` when its session is no
 * longer live (signed out, revoked, expired, its user deleted), `noAccess` when its API token is
 * not (revoked, expired), its user may no longer operate the VM or the VM left its team. Read
 * afresh each time: the user's rights are those of now. The VM's status is not asked: a console
 * stays open through a reboot, and the engine ends its stream when the guest is gone.
 */
export async function viewerStanding(
  db: Db,
  viewer: ConsoleViewer,
  now: Date,
): Promise<'allowed' | 'sessionEnded' | 'noAccess'> {
  const who =
    viewer.holder.kind === 'apiToken'
      ? await holderCaller(db, viewer.holder, viewer.userId, undefined, now)
      : await sessionUser(db, viewer, now);
  if (!who) return viewer.holder.kind === 'session' ? 'sessionEnded' : 'noAccess';
  if (who.companyId !== viewer.companyId) return 'noAccess';
  const vm = await reachableVm(db, who, viewer.vmId);
  const stays =
    vm !== undefined && vm.teamId === viewer.teamId && vm.providerRef === viewer.providerRef;
  return stays ? 'allowed' : 'noAccess';
}

/** The user of an open console's session while the session is live (by id: no cookie now). */
async function sessionUser(
  db: Db,
  viewer: ConsoleViewer,
  now: Date,
): Promise<(Caller & { companyId: number }) | undefined> {
  const [user] = await db
    .select({
      companyId: users.companyId,
      isAdmin: users.isAdmin,
      mustResetPassword: users.forcePasswordReset,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, viewer.holder.id),
        eq(sessions.userId, viewer.userId),
        isNull(sessions.revokedAt),
        isNotNull(sessions.verifiedAt),
        gt(sessions.expiresAt, now),
      ),
    );
  if (!user || user.mustResetPassword) return undefined;
  return { userId: viewer.userId, companyId: user.companyId, isAdmin: user.isAdmin };
}

/** Used tickets that have expired are refused by their signature alone: their rows can go. */
export async function pruneUsedConsoleTickets(db: Db, now: Date): Promise<void> {
  await db.delete(usedConsoleTickets).where(lt(usedConsoleTickets.expiresAt, now));
}
