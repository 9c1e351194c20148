import type { ActivityEvent } from '../../../src/api/contract/activity';
import { api, http, ok, server } from './msw';

export const anEvent = (id: number, overrides: Partial<ActivityEvent> = {}): ActivityEvent => ({
  id,
  occurredAt: new Date(Date.UTC(2026, 10, 24, 12, 0, id)),
  actor: { type: 'user', id: 1, name: 'Ada Admin' },
  subject: { type: 'vm', id: 42, name: 'web-1' },
  action: 'vm.start',
  outcome: 'requested',
  teamId: 7,
  networkId: null,
  operationId: 100 + id,
  detail: {},
  ...overrides,
});

/**
 * Serves activity/list from `events` (newest first, as the server answers), paged by the query;
 * records each query string. Pages that show an Activity card get none unless a test serves some.
 */
export function serveActivity(events: ActivityEvent[] = []) {
  const queries: Record<string, string>[] = [];
  server.use(
    http.get(api('activity/list'), ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      queries.push(query);
      const rows = Number(query.rowsPerPage ?? 10);
      const page = Number(query.page ?? 1);
      return ok(
        {
          data: events.slice((page - 1) * rows, page * rows),
          totalPages: Math.max(1, Math.ceil(events.length / rows)),
        },
        'OK',
      );
    }),
  );
  return { queries, last: () => queries.at(-1) };
}
