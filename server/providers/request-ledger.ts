import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';
import { createdAt } from '../db/columns';

/**
 * An engine's ledger of its state-changing calls by client token, so that a repeated call does
 * nothing more (the contract's idempotency, `driver.ts`). Each engine keeps its own table, in its
 * own schema, as a real engine keeps its own records; the shape is the same for all of them.
 */
export const requestLedgerTable = <Name extends string>(name: Name) =>
  pgTable(name, {
    clientToken: text('client_token').primaryKey(),
    action: text('action').notNull(),
    ref: text('ref').notNull(),
    createdAt: createdAt(),
  });

export type RequestLedgerTable = ReturnType<typeof requestLedgerTable<string>>;

export class RequestLedger {
  constructor(
    private readonly table: RequestLedgerTable,
    /** The engine's clock for the record's time; the database's when left out. */
    private readonly now?: () => Date,
  ) {}

  /** True the first time a client token is seen; recorded in the caller's transaction. */
  async first(tx: Tx, clientToken: string, action: string, ref: string): Promise<boolean> {
    const [row] = await tx
      .insert(this.table)
      .values({ clientToken, action, ref, ...(this.now && { createdAt: this.now() }) })
      .onConflictDoNothing()
      .returning({ clientToken: this.table.clientToken });
    return row !== undefined;
  }

  /** Whether a call with this client token has been recorded already. */
  async seen(db: Db | Tx, clientToken: string): Promise<boolean> {
    const [row] = await db
      .select({ ref: this.table.ref })
      .from(this.table)
      .where(eq(this.table.clientToken, clientToken));
    return row !== undefined;
  }
}

/** A new reference the engine answers for what it makes: `srv-…`, `net-…`, `port-…`. */
export const newRef = (kind: string) => `${kind}-${randomBytes(8).toString('hex')}`;
