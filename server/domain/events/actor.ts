import { eq } from 'drizzle-orm';
import type { ActivityActorType } from '../../../src/api/contract/search-values';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';

/** Who made a change: a signed-in user, the operator (imports, the CLI) or the product itself. */
export interface Actor {
  type: ActivityActorType;
  id: number | null;
  name: string;
}

export const SYSTEM: Actor = { type: 'system', id: null, name: 'System' };
export const OPERATOR: Actor = { type: 'operator', id: null, name: 'Operator' };

/** The signed-in user as the log names them ("First Last", or the e-mail of an invited user). */
export async function userActor(db: Db | Tx, userId: number): Promise<Actor> {
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  const name = row ? `${row.firstName} ${row.lastName}`.trim() || row.email : `User ${userId}`;
  return { type: 'user', id: userId, name };
}
