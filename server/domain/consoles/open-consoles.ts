import type { Clock } from '../../clock';
import type { Database, Db } from '../../db/client';
import type { EventHub, EventRow } from '../events/hub';
import { pruneUsedConsoleTickets, viewerStanding, type ConsoleViewer } from './console-admission';

/** Open consoles a user may hold in one server process; opening one more closes their oldest. */
export const CONSOLES_PER_USER = 4;
/** Open consoles of one VM in one server process; another viewer's beyond it is refused. */
export const CONSOLES_PER_VM = 2;
/** A console closes after this long without keyboard or pointer input from the browser. */
export const CONSOLE_IDLE_MS = 15 * 60_000;
/** A console closes this long after it opened, whatever its use: the viewer opens a new one. */
export const CONSOLE_LIFETIME_MS = 8 * 60 * 60_000;
/** How often timeouts, dead connections and every console's rights are checked. */
export const CONSOLE_SWEEP_MS = 30_000;

/** Why a console closed, as the browser is told (a websocket close code and reason). */
export const consoleEnds = {
  sessionEnded: { code: 1008, reason: 'Your session has ended' },
  noAccess: { code: 1008, reason: 'You no longer have access to this server' },
  idle: { code: 1000, reason: 'Closed after 15 minutes without input' },
  lifetime: { code: 1000, reason: 'Closed after 8 hours: open the console again' },
  replaced: { code: 1000, reason: 'Closed: you opened too many consoles' },
  full: { code: 1013, reason: 'Too many consoles are open on this server' },
  // 1012, Service Restart: the page is told to open the console again (through a process that stays).
  shutdown: { code: 1012, reason: 'The server is restarting: open the console again' },
} as const;
export type ConsoleEnd = (typeof consoleEnds)[keyof typeof consoleEnds];

/** What the registry asks of an open console's connection. */
export interface ConsoleConnection {
  /** Closes the browser's side and the engine's; called once. */
  close(end: ConsoleEnd): void;
  /** Called at each sweep: a connection that stopped answering ends itself. */
  probe?(): void;
}

interface OpenConsole {
  viewer: ConsoleViewer;
  connection: ConsoleConnection;
  openedAt: number;
  lastInputAt: number;
  closed: boolean;
}

export interface ConsoleHandle {
  /** The browser sent keyboard or pointer input. */
  input(): void;
  /** The connection ended on its own. */
  remove(): void;
}

export interface OpenConsoles {
  /** Counts a console in, or answers why it is refused (it is then not counted). */
  add(viewer: ConsoleViewer, connection: ConsoleConnection): ConsoleHandle | ConsoleEnd;
  /** Closes timed-out consoles and those no longer allowed. Runs every CONSOLE_SWEEP_MS. */
  sweep(): Promise<void>;
  /** How many consoles this process holds. */
  readonly size: number;
  close(): Promise<void>;
}

/** Whether an event may change whether the viewer may keep this console. */
function concerns(row: EventRow, viewer: ConsoleViewer): boolean {
  switch (row.subjectType) {
    case 'user':
      return row.subjectId === viewer.userId;
    case 'team':
      return row.subjectId === viewer.teamId || row.detail.userId === viewer.userId;
    case 'apiToken':
      return viewer.holder.kind === 'apiToken' && row.subjectId === viewer.holder.id;
    case 'vm':
      return (
        row.subjectId === viewer.vmId && (row.action === 'vm.edit' || row.action === 'vm.delete')
      );
    case 'company':
      // Its sessions are revoked with it (they close at once anyway); its API tokens are refused.
      return row.action === 'company.suspend';
    default:
      return false;
  }
}

/**
 * The consoles open in this process, closed when their rules say (the same notifications that end
 * event streams): at once when their session is revoked or removed (signed out, password changed
 * or reset, user deleted) or their API token revoked, and when an event of their company may have taken the VM from their user
 * (removed from the team, role changed, VM moved or deleted); at each sweep when their session
 * expired, after CONSOLE_IDLE_MS without input, CONSOLE_LIFETIME_MS after opening, or when their
 * connection stopped answering.
 */
export async function createOpenConsoles(options: {
  db: Db;
  clock: Clock;
  hub: EventHub;
  listen: Database['listen'];
  log: { warn(obj: object, msg: string): void };
  limits?: Partial<{ perUser: number; perVm: number; idleMs: number; lifetimeMs: number }>;
}): Promise<OpenConsoles> {
  const { db, clock, hub, log } = options;
  const perUser = options.limits?.perUser ?? CONSOLES_PER_USER;
  const perVm = options.limits?.perVm ?? CONSOLES_PER_VM;
  const idleMs = options.limits?.idleMs ?? CONSOLE_IDLE_MS;
  const lifetimeMs = options.limits?.lifetimeMs ?? CONSOLE_LIFETIME_MS;
  // In opening order, so that the oldest of a user's comes first.
  const all = new Set<OpenConsole>();
  const companies = new Map<number, { count: number; unsubscribe: Promise<() => void> }>();

  function end(open: OpenConsole, reason: ConsoleEnd | undefined) {
    if (open.closed) return;
    open.closed = true;
    all.delete(open);
    const company = companies.get(open.viewer.companyId);
    if (company && --company.count === 0) {
      companies.delete(open.viewer.companyId);
      company.unsubscribe.then((stop) => stop()).catch(() => {});
    }
    if (reason) open.connection.close(reason);
  }

  async function recheck(consoles: OpenConsole[]) {
    const now = clock.now();
    await Promise.all(
      consoles.map(async (open) => {
        try {
          if (open.closed) return;
          const standing = await viewerStanding(db, open.viewer, now);
          // A deleted user's console hears of it twice (session revoked, team left): one reason.
          if (standing !== 'allowed') end(open, consoleEnds[standing]);
        } catch (error) {
          // The next sweep asks again; a database that is away closes no console.
          log.warn({ error: String(error), vmId: open.viewer.vmId }, 'console check failed');
        }
      }),
    );
  }

  function receive(companyId: number, batch: EventRow[]) {
    const touched = [...all].filter(
      (open) =>
        open.viewer.companyId === companyId && batch.some((row) => concerns(row, open.viewer)),
    );
    if (touched.length > 0) void recheck(touched);
  }

  function subscribe(companyId: number) {
    const company = companies.get(companyId);
    if (company) {
      company.count += 1;
      return company.unsubscribe;
    }
    const unsubscribe = hub.subscribe(companyId, (batch) => receive(companyId, batch));
    unsubscribe.catch((error: unknown) => {
      // The sweeps still check these consoles; the company's next console subscribes again.
      if (companies.get(companyId)?.unsubscribe === unsubscribe) companies.delete(companyId);
      log.warn({ error: String(error), companyId }, 'console events: subscription failed');
    });
    companies.set(companyId, { count: 1, unsubscribe });
    return unsubscribe;
  }

  const stopSessions = await options.listen(
    'launchpad_sessions',
    (payload) => {
      const sessionId = Number(payload);
      for (const open of all) {
        const { holder } = open.viewer;
        if (holder.kind === 'session' && holder.id === sessionId) {
          end(open, consoleEnds.sessionEnded);
        }
      }
    },
    // Notifications sent while the listener was away are lost: every console is asked again.
    () => void recheck([...all]),
  );

  async function sweep() {
    const now = clock.now().getTime();
    for (const open of all) {
      if (now - open.openedAt >= lifetimeMs) end(open, consoleEnds.lifetime);
      else if (now - open.lastInputAt >= idleMs) end(open, consoleEnds.idle);
      else open.connection.probe?.();
    }
    await recheck([...all]);
    await pruneUsedConsoleTickets(db, clock.now());
  }

  const timer = setInterval(() => {
    sweep().catch((error: unknown) => log.warn({ error: String(error) }, 'consoles: sweep failed'));
  }, CONSOLE_SWEEP_MS);
  timer.unref();

  return {
    add(viewer, connection) {
      const onVm = [...all].filter((open) => open.viewer.vmId === viewer.vmId);
      if (onVm.length >= perVm) {
        // The viewer's own console of the VM makes room (a reloaded tab); another's never does.
        const own = onVm.find((open) => open.viewer.userId === viewer.userId);
        if (!own) return consoleEnds.full;
        end(own, consoleEnds.replaced);
      }
      const mine = [...all].filter((open) => open.viewer.userId === viewer.userId);
      while (mine.length >= perUser) end(mine.shift()!, consoleEnds.replaced);
      const now = clock.now().getTime();
      const open: OpenConsole = {
        viewer,
        connection,
        openedAt: now,
        lastInputAt: now,
        closed: false,
      };
      all.add(open);
      // Whatever changed between the ticket's check and the subscription is looked at once.
      void subscribe(viewer.companyId).then(
        () => recheck([open]),
        () => {},
      );
      return {
        input: () => {
          open.lastInputAt = clock.now().getTime();
        },
        remove: () => end(open, undefined),
      };
    },
    sweep,
    get size() {
      return all.size;
    },
    async close() {
      clearInterval(timer);
      for (const open of all) end(open, consoleEnds.shutdown);
      await stopSessions();
    },
  };
}
