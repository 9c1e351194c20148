import {
  EngineRejection,
  ProviderRejection,
  ProviderUnavailable,
  type FailureKind,
  type TaskFault,
} from './driver';

/** What a failure happened to, as the sentences name it. */
export type FailureSubject = 'server' | 'network';

/**
 * What tenants are told of each kind of failure: engine-neutral, naming no host, address or
 * engine state. The engine's words go to the log beside the operation's id.
 */
export function publicReason(kind: FailureKind, subject: FailureSubject = 'server'): string {
  switch (kind) {
    case 'unreachable':
      return `The host of this ${subject} cannot be reached`;
    case 'capacity':
      return `There is not enough capacity for this ${subject} right now`;
    case 'refused':
      return 'The provider refused this operation';
    case 'timeout':
      return 'The provider did not finish in time';
    case 'unknown':
      return 'The provider could not complete this operation';
  }
}

/** A failure as a tenant may see it, and the words behind it (for the log only). */
export interface PublicFailure {
  kind: FailureKind;
  /** Shown to users: in statuses, operation errors and activity events. */
  reason: string;
  /** The engine's or the program's own words; null when `reason` is all there was. */
  cause: string | null;
}

const textOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Classifies what a driver threw, or the fault a task left, at the boundary where it would reach a
 * tenant: a refusal the driver wrote for users keeps its words; everything else is told by its
 * kind. Unknown errors (a bug, a dropped connection) are `unknown`, never their text.
 */
export function publicFailure(failure: unknown, subject: FailureSubject = 'server'): PublicFailure {
  const byKind = (kind: FailureKind, cause: string): PublicFailure => ({
    kind,
    reason: publicReason(kind, subject),
    cause,
  });
  if (typeof failure === 'string') return byKind('unknown', failure);
  if (isDescribedFault(failure)) {
    return failure.userMessage
      ? { kind: failure.kind, reason: failure.userMessage, cause: failure.engineText }
      : byKind(failure.kind, failure.engineText);
  }
  if (failure instanceof EngineRejection) return byKind(failure.kind, failure.message);
  if (failure instanceof ProviderRejection) {
    return { kind: 'refused', reason: failure.message, cause: null };
  }
  if (failure instanceof ProviderUnavailable) return byKind('unreachable', failure.message);
  return byKind('unknown', textOf(failure));
}

function isDescribedFault(value: unknown): value is Exclude<TaskFault, string> {
  return typeof value === 'object' && value !== null && 'engineText' in value && 'kind' in value;
}
