import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { importBody, importKinds, importResponse } from '../../src/api/contract/imports';
import { runImport } from '../domain/imports/run-import';
import { invalidItems } from '../http-error';
import type { RouteOptions } from './deps';

/** Room for IMPORT_MAX_ITEMS items; the rest of the API keeps the 1 MB default. */
const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * The operator bulk imports of distributors, resellers and companies: `POST /imports/{kind}`
 * with `{ items }`, allowed with the operator token only (never a user session).
 */
export const importRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  for (const kind of importKinds) {
    app.post(
      `/${kind}`,
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        config: { auth: 'operator' },
        schema: { body: importBody, response: { 200: importResponse } },
      },
      async (request) => {
        const outcome = await runImport({ ...deps, log: request.log }, kind, request.body.items);
        if ('errors' in outcome) throw invalidItems(outcome.errors);
        const { created, updated } = outcome.result;
        return { data: outcome.result, message: `${created} created, ${updated} updated` };
      },
    );
  }
};
