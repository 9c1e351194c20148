import type { ActivityEvent } from '../../src/api/contract/activity';
import { CliError, exitCodes } from './errors';
import { openEventStream } from './event-stream';
import type { Api } from './http';

export interface Subject {
  type: 'vm' | 'network';
  id: number;
}

export interface Ending {
  subject: Subject;
  ok: boolean;
  /** The engine-neutral reason the API gives a failure. */
  reason: string | null;
}

/** The end of an operation on the subject: `succeeded` or `failed`, not a status observed. */
const endOf = (event: ActivityEvent, subject: Subject): Ending | undefined => {
  if (event.subject.type !== subject.type || event.subject.id !== subject.id) return undefined;
  if (event.operationId === null) return undefined;
  if (event.outcome !== 'succeeded' && event.outcome !== 'failed') return undefined;
  const reason = event.detail.reason;
  return {
    subject,
    ok: event.outcome === 'succeeded',
    reason: typeof reason === 'string' ? reason : null,
  };
};

/**
 * Runs an action and waits for the operations it started to end, from the live event stream. The
 * stream is opened first so that no ending comes before it; a resource takes one operation at a
 * time, so the first ending of each subject after the request is the one it started.
 */
export async function actAndWait<T>(
  api: Api,
  act: () => Promise<T>,
  subjectsOf: (result: T) => Subject[],
  timeoutSeconds: number,
): Promise<{ result: T; endings: Ending[] }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutSeconds * 1000);
  try {
    const stream = await openEventStream(api, controller.signal);
    const result = await act();
    const pending = subjectsOf(result);
    const endings: Ending[] = [];
    try {
      for await (const item of stream) {
        if (item.kind !== 'activity') continue;
        for (const subject of pending) {
          const ending = endOf(item.event, subject);
          if (!ending) continue;
          endings.push(ending);
          pending.splice(pending.indexOf(subject), 1);
          break;
        }
        if (pending.length === 0) return { result, endings };
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    if (controller.signal.aborted) {
      throw new CliError(
        `Gave up waiting after ${timeoutSeconds} s: the operation goes on; see "launchpad events --follow"`,
        exitCodes.failed,
      );
    }
    throw new CliError(
      'The server closed the event stream before the operation ended',
      exitCodes.failed,
    );
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** Exits non-zero with the reasons when an operation failed. */
export function checkEndings(endings: Ending[], name: (s: Subject) => string) {
  const failed = endings.filter((e) => !e.ok);
  if (failed.length === 0) return;
  throw new CliError(
    failed.map((e) => `${name(e.subject)} failed: ${e.reason ?? 'no reason given'}`).join('\n'),
    exitCodes.failed,
  );
}
