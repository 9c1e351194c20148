import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody, FieldError } from '../../src/api/contract/envelope';
import { isBadValueForDatabase } from '../db/errors';
import { HttpError } from '../http-error';
import { UnreadableSecret } from '../domain/secrets';
import { EngineRejection, ProviderRejection, ProviderUnavailable } from '../providers/driver';
import { publicFailure } from '../providers/public-failure';

function fieldName(instancePath: string, context: string | undefined): string {
  const path = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return path || context || 'body';
}

function body(message: string, errors?: FieldError[]): ErrorBody {
  return errors ? { data: null, message, errors } : { data: null, message };
}

/**
 * One place turns every failure into the `{ data, message }` envelope: 400 names the field,
 * HttpError keeps its status, and a 5xx never shows its cause to the client.
 */
export function registerErrorHandling(
  app: FastifyInstance,
  paths: {
    apiPrefix: string;
    basePath: string;
    /** Serves the console for deep links; absent when the console is not built. */
    sendIndex: ((reply: FastifyReply) => FastifyReply | Promise<FastifyReply>) | undefined;
  },
) {
  const { apiPrefix, basePath, sendIndex } = paths;
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => ({
        field: fieldName(issue.instancePath, error.validationContext),
        message: issue.message ?? 'Invalid value',
      }));
      const first = errors[0]!;
      return reply.code(400).send(body(`${first.field}: ${first.message}`, errors));
    }
    if (error instanceof HttpError) {
      const errors =
        error.errors ??
        (error.field ? [{ field: error.field, message: error.message }] : undefined);
      return reply.code(error.statusCode).send(body(error.message, errors));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply
          .code(400)
          .send(body('body: Malformed JSON', [{ field: 'body', message: 'Malformed JSON' }]));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send(body('Content-Type must be application/json'));
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(413).send(body('Request body is too large'));
    }
    if (error instanceof EngineRejection) {
      // The engine's words name hosts and addresses: the log has them, the client its kind.
      request.log.warn({ err: error }, 'provider refused');
      return reply.code(409).send(body(publicFailure(error).reason));
    }
    if (error instanceof ProviderRejection) {
      return reply.code(409).send(body(error.message));
    }
    if (error instanceof ProviderUnavailable) {
      request.log.warn({ err: error }, 'provider unavailable');
      return reply.code(503).send(body('The provider could not be reached. Try again shortly.'));
    }
    if (error instanceof UnreadableSecret) {
      request.log.error(
        { err: error },
        'a stored secret could not be decrypted: is APP_SECRET the one it was stored with?',
      );
      return reply
        .code(500)
        .send(body('This secret cannot be read on this server. Ask your administrator.'));
    }
    if (isBadValueForDatabase(error)) {
      return reply
        .code(400)
        .send(body('A value is out of range or holds characters that cannot be stored'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send(body('Internal server error'));
    }
    return reply.code(status).send(body(error.message));
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith(apiPrefix)) return reply.code(404).send(body('Not found'));
    const isPage = request.method === 'GET' || request.method === 'HEAD';
    if (sendIndex && isPage && request.url.startsWith(basePath)) return sendIndex(reply);
    return reply.code(404).type('text/plain').send('Not found');
  });
}
