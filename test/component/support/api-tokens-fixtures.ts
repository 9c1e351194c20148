import type { CreateApiTokenBody } from '../../../src/api/contract/api-tokens';
import { api, http, ok, server } from './msw';
import { aTeam, serveTeams } from './users-fixtures';

/** The teams the form offers (`GET /teams/list`). */
export const TOKEN_TEAMS = [aTeam(11, 'Operations'), aTeam(12, 'Web')];

/** A token as `GET /apiTokens/list` sends it (dates as ISO strings on the wire). */
export const aToken = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  name: `Token ${id}`,
  access: 'read' as const,
  teams: null as { id: number; name: string }[] | null,
  user: { id: 7, name: 'Ada Lovelace', email: 'ada@example.com' },
  createdAt: '2026-10-01T09:00:00.000Z',
  expiresAt: '2027-10-01T09:00:00.000Z',
  lastUsedAt: null as string | null,
  lastUsedFrom: null as string | null,
  ...overrides,
});
export type WireToken = ReturnType<typeof aToken>;

/** What the create answer carries once: `lp_` and 43 base62 digits. */
export const SECRET = 'lp_4bC9dEfGh1JkLmN0pQrStUvWxYz2A3b4C5d6E7f8G9h';

/**
 * A small fake of the API tokens routes over the tokens of each user (by id), recording what the
 * console sends, and the teams the form offers. The signed-in user is id 7: a list without
 * `userId` and a create are theirs.
 */
export function serveApiTokens(tokensOf: Record<number, WireToken[]> = {}, meId = 7) {
  const store = new Map(
    Object.entries(tokensOf).map(([id, rows]) => [Number(id), rows.map((r) => ({ ...r }))]),
  );
  const sent = {
    listQueries: [] as Record<string, string>[],
    creates: [] as CreateApiTokenBody[],
    deletes: [] as number[],
    revokeAlls: [] as { userId?: number }[],
  };
  let nextId = 100;
  serveTeams(TOKEN_TEAMS);
  server.use(
    http.get(api('apiTokens/list'), ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      sent.listQueries.push(query);
      return ok(store.get(query.userId ? Number(query.userId) : meId) ?? []);
    }),
    http.post(api('apiTokens/create'), async ({ request }) => {
      const body = (await request.json()) as CreateApiTokenBody;
      sent.creates.push(body);
      const token = aToken(nextId++, {
        name: body.name,
        access: body.access,
        createdAt: new Date().toISOString(),
        expiresAt: body.expiresAt,
        teams: body.teamIds
          ? TOKEN_TEAMS.filter((team) => body.teamIds!.includes(team.id)).map(({ id, name }) => ({
              id,
              name,
            }))
          : null,
      });
      store.set(meId, [token, ...(store.get(meId) ?? [])]);
      return ok({ token, secret: SECRET }, 'API token created');
    }),
    http.delete(api('apiTokens/delete/:id'), ({ params }) => {
      const id = Number(params.id);
      sent.deletes.push(id);
      for (const [userId, rows] of store)
        store.set(
          userId,
          rows.filter((r) => r.id !== id),
        );
      return ok(null, 'API token revoked');
    }),
    http.post(api('apiTokens/revokeAll'), async ({ request }) => {
      const body = (await request.json()) as { userId?: number };
      sent.revokeAlls.push(body);
      const userId = body.userId ?? meId;
      const revoked = store.get(userId)?.length ?? 0;
      store.set(userId, []);
      return ok({ revoked }, 'API tokens revoked');
    }),
  );
  return { sent, store };
}
