import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callerFor,
  expectDocumented,
  fillPath,
  knownIds,
  operations,
  readDocument,
  resellerSession,
  type ApiDocument,
  type KnownIds,
} from './support/openapi-calls';
import { bearer, signIn } from './support/sign-in';
import { startVmWorld, type VmWorld } from './support/vm-world';

/**
 * The document as a generic client reads it: every route is called from what the document says
 * (its path parameters filled with real ids of the caller's company, or with nothing of the
 * body it asks for), and each answer must be one the document lists for the route, with the shape
 * it gives for that status. Never a 500.
 */

const OPERATOR_TOKEN = 'contract-operator-token-0123456789abcdef';

let w: VmWorld;
let document: ApiDocument;
let ids: KnownIds;

beforeAll(async () => {
  w = await startVmWorld({ env: { OPERATOR_TOKEN } });
  document = await readDocument(w);
  ids = await knownIds(w);
}, 60_000);
afterAll(() => w?.close());

describe('every route, as its document describes it', () => {
  it('answers a caller without credentials as documented', async () => {
    expect(operations(document).length).toBe(w.server.app.apiRoutes.length - 1);
    for (const { path, method, operation } of operations(document)) {
      if (path === '/events') continue; // a stream; its refusal is a plain 401 all the same
      const res = await w.server.app.inject({ method, url: fillPath(path, ids) });
      expectDocumented(`${method} ${path}`, operation, res);
    }
  }, 60_000);

  it('answers an Admin (the reseller staff on its console), with real ids and an empty body, as documented', async () => {
    const sessions = {
      admin: (await signIn(w.server, 'admin@a.test')).token,
      reseller: await resellerSession(w),
    };
    for (const { path, method, operation } of operations(document)) {
      // The stream never ends; signing out (or ending a session whose id is guessed, perhaps the
      // caller's own) would leave the rest to answer 401.
      if (path === '/events' || path === '/auth/logout' || path === '/sessions/delete/{id}') {
        continue;
      }
      const isOperator = operation.security?.some((s) => 'operatorToken' in s);
      const headers = isOperator
        ? { authorization: `Bearer ${OPERATOR_TOKEN}` }
        : bearer(callerFor(path, sessions));
      const res = await w.server.app.inject({
        method,
        url: fillPath(path, ids),
        headers: {
          ...headers,
          ...(operation.requestBody ? { 'content-type': 'application/json' } : {}),
        },
        ...(operation.requestBody ? { payload: '{}' } : {}),
      });
      expectDocumented(`${method} ${path}`, operation, res);
      expect(res.statusCode, `${method} ${path}`).toBeLessThan(500);
    }
  }, 120_000);
});
