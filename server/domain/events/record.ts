import type { ActivityAction } from '../../../src/api/contract/activity';
import type { ActivityOutcome, ActivitySubjectType } from '../../../src/api/contract/search-values';
import type { Tx } from '../../db/client';
import { events } from '../../db/event-schema';
import type { Actor } from './actor';

export interface EventInput {
  companyId: number;
  actor: Actor;
  subject: { type: ActivitySubjectType; id: number; name: string };
  action: ActivityAction;
  outcome: ActivityOutcome;
  teamId?: number | null;
  networkId?: number | null;
  operationId?: number | null;
  detail?: Record<string, string | number | boolean | null>;
  at: Date;
}

/**
 * Appends an event in the caller's transaction: it exists if and only if the change does. Its
 * number and its announcement to the streams come at commit (migration 0009).
 */
export async function recordEvent(tx: Tx, input: EventInput): Promise<void> {
  await tx.insert(events).values({
    companyId: input.companyId,
    occurredAt: input.at,
    actorType: input.actor.type,
    actorId: input.actor.id,
    actorName: input.actor.name,
    subjectType: input.subject.type,
    subjectId: input.subject.id,
    subjectName: input.subject.name,
    action: input.action,
    outcome: input.outcome,
    teamId: input.teamId ?? null,
    networkId: input.networkId ?? null,
    operationId: input.operationId ?? null,
    detail: input.detail ?? {},
  });
}
