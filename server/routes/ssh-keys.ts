import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createSshKeyBody,
  createSshKeyResponse,
  deleteSshKeyResponse,
  listSshKeysResponse,
  sshKeyIdParam,
  sshKeyMessages,
} from '../../src/api/contract/ssh-keys';
import { createSshKey, deleteSshKey, listSshKeys } from '../domain/ssh-keys/ssh-keys';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/**
 * The caller's own public SSH keys (Profile → SSH keys), which `virtualMachines/create` and
 * `virtualMachines/reinstall` take by id (`sshKeyIds`). Nobody else sees them, an Admin included.
 */
export const sshKeyRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db, clock } = deps;

  app.post(
    '/create',
    { schema: { body: createSshKeyBody, response: { 200: createSshKeyResponse } } },
    async (request) => {
      const data = await createSshKey(db, caller(request), request.body, clock.now());
      request.log.info({ sshKeyId: data.id }, 'SSH key added');
      return { data, message: sshKeyMessages.created };
    },
  );

  app.get('/list', { schema: { response: { 200: listSshKeysResponse } } }, async (request) => ({
    data: await listSshKeys(db, caller(request)),
    message: 'OK',
  }));

  app.delete(
    '/delete/:id',
    { schema: { params: sshKeyIdParam, response: { 200: deleteSshKeyResponse } } },
    async (request) => {
      await deleteSshKey(db, caller(request), request.params.id);
      return { data: null, message: sshKeyMessages.deleted };
    },
  );
};
