import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from '../../src/api/contract/zod';
import { listVmsResponse } from '../../src/api/contract/vms';
import { answerJsonSchema, serializerCompiler } from '../../server/response-serializer';
import { startTestServer, type TestServer } from './support/harness';
import { arbitraryOf, type JsonSchema } from './support/schema-arbitrary';

const serializerOf = (schema: z.ZodMiniType) =>
  serializerCompiler({ schema, method: 'GET', url: '/', httpPart: 'response' });

/**
 * The JSON schema of a route's answer. An answer given in more than one content type (usage as
 * CSV beside JSON) names each: its JSON is written from its schema, the rest (text) as it is.
 */
const jsonSchemasOf = (response: unknown): unknown[] => {
  const content = (response as { content?: Record<string, { schema: unknown }> }).content;
  if (!content) return [response];
  return content['application/json'] ? [content['application/json'].schema] : [];
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('answers written from their schemas', () => {
  it('writes any answer its schema allows as the same JSON, on every route', () => {
    const routes = server.app.apiRoutes.flatMap(({ method, url, responses }) =>
      Object.values(responses)
        .flatMap(jsonSchemasOf)
        .map((schema) => ({ method, url, schema })),
    );
    expect(routes.length).toBeGreaterThan(40);
    for (const { schema, method, url } of routes) {
      const write = serializerOf(schema as z.ZodMiniType);
      const values = arbitraryOf(answerJsonSchema(schema as z.ZodMiniType) as JsonSchema);
      fc.assert(
        fc.property(values, (value) => {
          const asJson = JSON.parse(JSON.stringify(value)) as unknown;
          expect(JSON.parse(write(value)), `${method} ${url}`).toEqual(asJson);
        }),
        { numRuns: 25 },
      );
    }
  });

  it('leaves out what the schema does not name and writes dates as ISO strings', () => {
    const createdAt = new Date('2026-11-26T12:34:56.789Z');
    const row = {
      id: 7,
      name: 'web-1',
      status: 'Running',
      configuration: 'Small',
      cpu: 1,
      ram: 2,
      primaryIp: null,
    };
    const written = serializerOf(listVmsResponse)({
      data: { data: [{ ...row, createdAt, companyId: 3, deletedAt: null }], totalPages: 1 },
      message: '',
    });
    expect(JSON.parse(written)).toEqual({
      data: { data: [{ ...row, createdAt: '2026-11-26T12:34:56.789Z' }], totalPages: 1 },
      message: '',
    });
  });

  it('writes an object that may be null without the keys its schema does not name', () => {
    const schema = z.object({ owner: z.nullable(z.object({ name: z.string() })) });
    const write = serializerOf(schema);
    expect(write({ owner: { name: 'Ana', passwordHash: 'x' } })).toBe('{"owner":{"name":"Ana"}}');
    expect(write({ owner: null })).toBe('{"owner":null}');
  });
});
