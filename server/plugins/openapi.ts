import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { SESSION_COOKIE } from './session-cookie';

/** `{ data: null, message, errors? }`: every answer other than 200 (`errorBody` in the contract). */
const errorBody = {
  type: 'object',
  required: ['data', 'message'],
  properties: {
    data: { type: 'null' },
    message: { type: 'string' },
    errors: {
      type: 'array',
      description: 'The fields of a 400, each with its message',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: {
          index: { type: 'integer', description: 'The item of a list body the field belongs to' },
          field: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
  },
};

const errorAnswers: Record<number, string> = {
  400: 'Bad input: `errors` names each field',
  401: 'No session, or it expired or was revoked',
  403: 'The role does not allow it',
  404: 'Not found, or not the caller’s to see (another company’s id answers the same)',
  409: 'The resource’s state does not allow it now',
  413: 'The body is larger than the API accepts',
  429: 'Too many requests: try again later',
};

/**
 * The OpenAPI 3.1 document, generated from the routes' zod schemas, at `{api}/openapi.json`, and a
 * reference page (Swagger UI, served from this server) at `{base}api/docs`. Every API route is in
 * it with its parameters, bodies, its answers and how it is authenticated.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  options: { apiPrefix: string; basePath: string },
) {
  const { apiPrefix, basePath } = options;
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      servers: [{ url: apiPrefix }],
      info: {
        title: 'Launchpad API',
        version: '1',
        description:
          'Every answer is `{ data, message }`. Sign in with `POST /auth/login` and `POST /auth/mfa` ' +
          '(the e-mailed code); send the token of the `Authorization` answer header as a bearer ' +
          'token. A script sends a personal API token (`lp_…`, made in the console under ' +
          'Profile → API tokens) as the bearer token instead. The imports take the operator token.',
      },
      components: {
        securitySchemes: {
          session: { type: 'http', scheme: 'bearer', description: 'A verified session token' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'lp_ and 43 base62 characters',
            description:
              'A personal API token: its user’s current rights, read-only when its access is `read`',
          },
          operatorToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The server’s OPERATOR_TOKEN (imports, sim faults)',
          },
        },
      },
    },
    transform: (document) => {
      if (!document.url.startsWith(`${apiPrefix}/`)) {
        return { schema: { hide: true } as FastifySchema, url: document.url };
      }
      const transformed = jsonSchemaTransform(document);
      const schema = transformed.schema as FastifySchema & {
        response?: Record<string, unknown>;
        security?: unknown;
        hide?: boolean;
      };
      if (schema.hide) return transformed;
      const { auth, refusal, forbidden, sessionOnly } = document.route.config ?? {};
      const isPublic = auth === 'public';
      const sessions: Record<string, string[]>[] = [{ session: [] }, { sessionCookie: [] }];
      schema.security =
        auth === 'operator'
          ? [{ operatorToken: [] }]
          : isPublic
            ? []
            : auth === 'pending' || sessionOnly
              ? sessions
              : [...sessions, { apiToken: [] }];
      // A route that answers something other than JSON (the event stream) says so itself.
      const response: Record<string, unknown> = {
        '200': { description: 'OK' },
        ...schema.response,
      };
      // A public route answers 401 and 403 only where it says why (a sign-in refused).
      const answers = {
        ...errorAnswers,
        401: isPublic ? refusal : errorAnswers[401],
        403: isPublic ? forbidden : errorAnswers[403],
      };
      for (const [status, description] of Object.entries(answers)) {
        if (!description) continue;
        response[status] ??= { description, ...errorBody };
      }
      schema.response = response;
      return { schema, url: transformed.url.slice(apiPrefix.length) || '/' };
    },
  });
  app.get(`${apiPrefix}/openapi.json`, { schema: { hide: true } }, () => app.swagger());
  await app.register(fastifySwaggerUi, { routePrefix: `${basePath}api/docs` });
}
