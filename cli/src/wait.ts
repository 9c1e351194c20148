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

/** Reads the subject once: its ending when it shows one, else undefined. */
export type Poll = (subject: Subject) => Promise<Ending | undefined>;

const POLL_MS = 3000;

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

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Runs an action and waits for the operations it started to end. The live event stream is
 * opened first, and a resource runs one operation at a time, so the first ending of each subject
 * after the request is the one it started. `poll` reads the resource too, every few seconds: the
 * server subscribes a new stream a moment after answering it, and may close it (a user's ninth
 * stream closes the first).
 */
export async function actAndWait<T>(
  api: Api,
  act: () => Promise<T>,
  subjectsOf: (result: T) => Subject[],
  options: { timeoutSeconds: number; poll?: Poll },
): Promise<{ result: T; endings: Ending[] }> {
  const controller = new AbortController();
  const { signal } = controller;
  const timer = setTimeout(() => controller.abort(), options.timeoutSeconds * 1000);
  try {
    const stream = await openEventStream(api, signal);
    const result = await act();
    const pending = subjectsOf(result);
    const endings: Ending[] = [];
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const settle = (ending: Ending) => {
      const index = pending.indexOf(ending.subject);
      if (index === -1) return;
      pending.splice(index, 1);
      endings.push(ending);
      if (pending.length === 0) finish();
    };
    const reading = (async () => {
      for await (const item of stream) {
        if (item.kind !== 'activity') continue;
        for (const subject of [...pending]) {
          const ending = endOf(item.event, subject);
          if (ending) settle(ending);
        }
      }
    })().catch(() => undefined);
    const polling = (async () => {
      const poll = options.poll;
      if (!poll) return reading;
      while (pending.length > 0 && !signal.aborted) {
        await sleep(POLL_MS, signal);
        for (const subject of [...pending]) {
          const ending = await poll(subject).catch(() => undefined);
          if (ending) settle(ending);
        }
      }
    })();
    const aborted = new Promise<void>((resolve) =>
      signal.addEventListener('abort', () => resolve()),
    );
    await Promise.race([finished, aborted, polling]);
    if (pending.length === 0) return { result, endings };
    if (signal.aborted) {
      throw new CliError(
        `Gave up waiting after ${options.timeoutSeconds} s: the operation goes on; see "launchpad events --follow"`,
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
