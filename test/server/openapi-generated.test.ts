import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
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
  type Operation,
} from './support/openapi-calls';
import { arbitraryOf, type JsonSchema } from './support/schema-arbitrary';
import { bearer, signIn } from './support/sign-in';
import { startVmWorld, type VmWorld } from './support/vm-world';

/**
 * Requests generated from the document alone, as a schemathesis-like client would make them:
 * query parameters and JSON bodies drawn from their schemas (fast-check), sent as an Admin (or the
 * operator, where the document says so). Whatever comes back must be an answer the document lists
 * for the route, in the shape it gives, and never a 500. And a body that breaks its schema in one
 * field must be refused with a 400 that names that field.
 */

const OPERATOR_TOKEN = 'generated-operator-token-0123456789abcdef';
/**
 * Generated requests per operation: every operation of the document gets this many, each run with
 * new ones (fast-check's seed changes), so more runs spread over the suite's runs rather than one.
 */
const RUNS = 3;

let w: VmWorld;
let document: ApiDocument;
let ids: KnownIds;
let sessions: { admin: string; reseller: string };

beforeAll(async () => {
  w = await startVmWorld({ env: { OPERATOR_TOKEN } });
  document = await readDocument(w);
  ids = await knownIds(w);
  sessions = {
    admin: (await signIn(w.server, 'admin@a.test')).token,
    reseller: await resellerSession(w),
  };
}, 60_000);
afterAll(() => w?.close());

const bodySchema = (operation: Operation) =>
  operation.requestBody?.content['application/json']?.schema;

const queryOf = (operation: Operation) =>
  (operation.parameters ?? []).filter((p) => p.in === 'query' && p.schema);

/** A query string and a body for the operation, drawn from the document's schemas. */
function requestOf(operation: Operation) {
  const query = fc.record(
    Object.fromEntries(queryOf(operation).map((p) => [p.name, arbitraryOf(p.schema!)])),
    {
      requiredKeys: queryOf(operation)
        .filter((p) => p.required)
        .map((p) => p.name),
    },
  );
  const body = bodySchema(operation);
  return fc.record({ query, body: body ? arbitraryOf(body) : fc.constant(undefined) });
}

function send(
  { path, method, operation }: ReturnType<typeof operations>[number],
  query: Record<string, unknown>,
  body: unknown,
) {
  const isOperator = operation.security?.some((s) => 'operatorToken' in s);
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]),
  ).toString();
  return w.server.app.inject({
    method,
    url: fillPath(path, ids) + (search ? `?${search}` : ''),
    headers: {
      ...(isOperator
        ? { authorization: `Bearer ${OPERATOR_TOKEN}` }
        : bearer(callerFor(path, sessions))),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
}

/** Routes a generated request must not call: the stream never ends, and signing out ends the run. */
const callable = () =>
  operations(document).filter(({ path }) => path !== '/events' && path !== '/auth/logout');

describe('requests generated from the document', () => {
  it('are answered as documented, never with a 500', async () => {
    for (const call of callable()) {
      const route = `${call.method} ${call.path}`;
      await fc.assert(
        fc.asyncProperty(requestOf(call.operation), async ({ query, body }) => {
          const res = await send(call, query, body);
          expect(res.statusCode, `${route}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
          expectDocumented(route, call.operation, res);
        }),
        { numRuns: RUNS },
      );
    }
    // A generated fault would leave the engine failing for whatever runs next.
    await w.server.app.inject({
      method: 'DELETE',
      url: '/api/v1/sim/faults',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
  }, 240_000);

  it('refuse a body with one field of the wrong kind, naming that field', async () => {
    const ajv = addFormats(new Ajv2020({ strict: false }));
    /** A JSON value the field's schema does not allow. */
    const wrongFor = (schema: JsonSchema) => {
      const allows = ajv.compile(schema);
      return [{ not: 'this' }, 12345, 'text', true, [1]].find((value) => !allows(value));
    };
    let checked = 0;
    for (const call of callable()) {
      const schema = bodySchema(call.operation);
      // A list body (the imports): its first item's fields, answered with the item's index.
      const item = schema?.type === 'array' ? schema.items : schema;
      for (const [field, fieldSchema] of Object.entries(item?.properties ?? {})) {
        const wrong = wrongFor(fieldSchema);
        if (wrong === undefined) continue;
        const route = `${call.method} ${call.path} with ${field}: ${JSON.stringify(wrong)}`;
        await fc.assert(
          fc.asyncProperty(arbitraryOf({ ...item!, minItems: 1 }), async (valid) => {
            const broken = { ...(valid as object), [field]: wrong };
            const res = await send(call, {}, schema!.type === 'array' ? [broken] : broken);
            expect(res.statusCode, `${route}: ${res.body.slice(0, 300)}`).toBe(400);
            const errors = (res.json() as { errors?: { field: string; index?: number }[] }).errors;
            expect(
              errors?.some((e) => e.field === field || e.field.startsWith(`${field}.`)),
              `${route}: ${res.body.slice(0, 300)}`,
            ).toBe(true);
          }),
          { numRuns: 2 },
        );
        checked++;
      }
    }
    // Every body field of the document was tried (a guard against a document without bodies).
    expect(checked).toBeGreaterThan(60);
  }, 240_000);
});
