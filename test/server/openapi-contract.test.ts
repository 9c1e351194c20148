import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn } from './sign-in';
import { startVmWorld, type VmWorld } from './vm-world';

/**
 * The document as a generic client reads it: every route is called from what the document says
 * (its path parameters filled with real ids of the caller's company, or with nothing of the
 * body it asks for), and each answer must be one the document lists for the route, with the shape
 * it gives for that status. Never a 500.
 */

const OPERATOR_TOKEN = 'contract-operator-token-0123456789abcdef';

interface Operation {
  security?: Record<string, unknown>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { required?: boolean };
  responses: Record<string, { content?: { 'application/json'?: { schema?: object } } }>;
}

let w: VmWorld;
let document: { paths: Record<string, Record<string, Operation>> };
let ids: Record<string, number>;
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  w = await startVmWorld({ env: { OPERATOR_TOKEN } });
  document = (await w.server.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const vmId = await w.runningVm('contract');
  const regionId = Number((await w.order()).regionId);
  ids = { vm: vmId, team: w.alphaId, user: w.userIds.viewer, region: regionId };
}, 60_000);
afterAll(() => w?.close());

/** A real id of the caller's company for a path parameter, guessed from the path. */
function idFor(path: string, name: string): number {
  if (/regionId/.test(name) || /Regions?|listImages|listProviders|getRegion|Cities/.test(path)) {
    return ids.region!;
  }
  if (/^\/teams|permissions/.test(path)) return ids.team!;
  if (/^\/users/.test(path)) return ids.user!;
  return ids.vm!;
}

const operations = () =>
  Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ path, method, operation })),
  );

/** The answer is one the document lists, with the shape it gives for it. */
function expectDocumented(
  route: string,
  operation: Operation,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
) {
  const documented = operation.responses[String(res.statusCode)];
  expect(
    documented,
    `${route} answered ${res.statusCode}: ${res.body.slice(0, 200)}`,
  ).toBeDefined();
  const schema = documented!.content?.['application/json']?.schema;
  if (!schema || !String(res.headers['content-type']).startsWith('application/json')) return;
  const validate = ajv.compile(schema);
  const valid = validate(JSON.parse(res.body));
  expect(valid, `${route} ${res.statusCode}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

describe('every route, as its document describes it', () => {
  it('answers a caller without credentials as documented', async () => {
    expect(operations().length).toBe(w.server.app.apiRouteList.length - 1);
    for (const { path, method, operation } of operations()) {
      if (path === '/events') continue; // a stream; its refusal is a plain 401 all the same
      const url = `/api/v1${path.replace(/\{(\w+)\}/g, (_, name: string) => String(idFor(path, name)))}`;
      const res = await w.server.app.inject({ method: method.toUpperCase() as 'GET', url });
      expectDocumented(`${method.toUpperCase()} ${path}`, operation, res);
    }
  }, 60_000);

  it('answers an Admin, with real ids and an empty body, as documented', async () => {
    const { token: session } = await signIn(w.server, 'admin@a.test');
    for (const { path, method, operation } of operations()) {
      // The stream never ends; signing out would leave the rest to answer 401.
      if (path === '/events' || path === '/auth/logout') continue;
      const url = `/api/v1${path.replace(/\{(\w+)\}/g, (_, name: string) => String(idFor(path, name)))}`;
      const isOperator = operation.security?.some((s) => 'operatorToken' in s);
      const headers = isOperator ? { authorization: `Bearer ${OPERATOR_TOKEN}` } : bearer(session);
      const res = await w.server.app.inject({
        method: method.toUpperCase() as 'GET',
        url,
        headers: {
          ...headers,
          ...(operation.requestBody ? { 'content-type': 'application/json' } : {}),
        },
        ...(operation.requestBody ? { payload: '{}' } : {}),
      });
      expectDocumented(`${method.toUpperCase()} ${path}`, operation, res);
      expect(res.statusCode, `${method.toUpperCase()} ${path}`).toBeLessThan(500);
    }
  }, 120_000);
});
