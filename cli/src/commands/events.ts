import { listActivityResponse, type ActivityEvent } from '../../../src/api/contract/activity';
import { type Command } from '../command';
import { CliError, exitCodes } from '../errors';
import { openEventStream } from '../event-stream';
import type { Api } from '../http';
import type { Output } from '../output';
import { parseCount } from '../values';

/** One event on one line: when, number, action and outcome, subject, actor, and what else it says. */
export function eventLine(event: ActivityEvent): string {
  const detail = Object.entries(event.detail)
    .map(([key, value]) => `${key}=${value instanceof Date ? value.toISOString() : String(value)}`)
    .join(' ');
  return [
    event.occurredAt.toISOString(),
    `#${event.id}`,
    `${event.action} ${event.outcome}`,
    `${event.subject.type} ${event.subject.id} "${event.subject.name}"`,
    `by ${event.actor.name}`,
    detail,
  ]
    .filter(Boolean)
    .join('  ');
}

const print = (output: Output, event: ActivityEvent) =>
  output.format === 'json' ? output.line(JSON.stringify(event)) : output.line(eventLine(event));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows the stream until interrupted. A stream the server ends (a restart, the user's rights
 * changed) is opened again after the last event seen, so none is missed or repeated; at once (a
 * moment, spread so that clients do not all come back together) when the server said it is
 * shutting down, as another process then answers.
 */
async function follow(api: Api, output: Output) {
  let lastId: string | undefined;
  for (;;) {
    let told = false;
    try {
      const stream = await openEventStream(api, undefined, lastId);
      console.error('(following events: Ctrl-C to stop)');
      for await (const item of stream) {
        if (item.kind === 'reconnect') {
          if (item.id) lastId = item.id;
          told = true;
          continue;
        }
        if (item.kind === 'reload') {
          console.error(
            `(more events than the server replays were missed; resuming at #${item.id})`,
          );
          lastId = item.id;
          continue;
        }
        print(output, item.event);
        lastId = String(item.event.id);
      }
    } catch (error) {
      // Refusals (a revoked token, no rights) end the command; a dropped connection does not.
      if (error instanceof CliError && error.code !== exitCodes.unreachable) throw error;
    }
    await pause(told ? 250 + Math.random() * 1000 : 2000);
  }
}

const events: Command = {
  path: ['events'],
  summary: 'the latest events, or every new one as it happens with --follow',
  options: {
    follow: { type: 'boolean', short: 'f', description: 'stream events until interrupted' },
    limit: { type: 'string', value: 'n', description: 'without --follow: how many (default 20)' },
  },
  notes: [
    'With --output json, --follow writes one JSON object a line.',
    'Without --follow, a non-Admin sees only the events of the VMs and networks they may see.',
  ],
  async run({ api, options, output }) {
    if (options.follow) return follow(api(), output);
    const page = await api().call('GET', 'activity/list', listActivityResponse, {
      query: { rowsPerPage: parseCount(options.limit, 'limit', 20) },
    });
    const newestLast = [...page.data.data].reverse();
    if (output.format === 'json') return output.json(newestLast);
    for (const event of newestLast) print(output, event);
  },
};

export const eventCommands: Command[] = [events];
