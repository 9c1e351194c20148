import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/harness';

/**
 * The API document: generated from the routes themselves, so a route added without it fails here;
 * valid OpenAPI 3.1; every operation with its answers and how it is authenticated.
 */
let server: TestServer;
let document: {
  openapi: string;
  paths: Record<
    string,
    Record<string, { security?: unknown[]; responses: Record<string, unknown> }>
  >;
  components: { securitySchemes: Record<string, unknown> };
};

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN: 'openapi-operator-token-0123456789abcdef' });
  const res = await server.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  document = res.json();
});
afterAll(() => server?.close());

/** `GET /virtualMachines/details/:id` as the document writes it: `/virtualMachines/details/{id}`. */
const documented = () =>
  Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map(
      (method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
    ),
  );

describe('GET /api/v1/openapi.json', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every API route, and only those', () => {
    const routes = server.app.apiRoutes
      .map((route) => route.name)
      .filter((route) => route !== 'GET /openapi.json');
    expect([...documented()].sort()).toEqual([...routes].sort());
  });

  it('says how each route is authenticated and what it answers', () => {
    const vmList = document.paths['/virtualMachines/list']!.get!;
    expect(vmList.security).toEqual([{ session: [] }, { sessionCookie: [] }, { apiToken: [] }]);
    expect(Object.keys(vmList.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '409', '413', '429']),
    );
    expect(document.paths['/auth/login']!.post!.security).toEqual([]);
    expect(document.paths['/imports/company']!.post!.security).toEqual([{ operatorToken: [] }]);
    // What makes or renews a credential takes a session, never an API token.
    for (const [path, method] of [
      ['/apiTokens/create', 'post'],
      ['/users/updatePassword', 'post'],
      ['/auth/refreshAuth', 'post'],
      ['/auth/mfa', 'post'],
    ] as const) {
      expect(document.paths[path]![method]!.security, path).toEqual([
        { session: [] },
        { sessionCookie: [] },
      ]);
    }
    expect(document.components.securitySchemes.apiToken).toMatchObject({ scheme: 'bearer' });
  });

  it('serves a reference page from this server', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
    expect(res.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"']*\.(js|css)/);
  });
});
