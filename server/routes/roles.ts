import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  roleMessages,
  rolesResponse,
  updateUserRoleForTeamBody,
  updateUserRoleForTeamResponse,
} from '../../src/api/contract/roles';
import { listRoles, setTeamMemberRole } from '../domain/tenancy/team-members';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** The fixed roles and per-team role changes. */
export const roleRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  app.get('/userRoles', { schema: { response: { 200: rolesResponse } } }, async () => {
    return { data: await listRoles(deps.db), message: 'OK' };
  });

  app.post(
    '/updateUserRoleForTeam',
    {
      schema: { body: updateUserRoleForTeamBody, response: { 200: updateUserRoleForTeamResponse } },
    },
    async (request) => {
      await setTeamMemberRole(deps.db, caller(request), {
        ...request.body,
        now: deps.clock.now(),
      });
      return { data: null, message: roleMessages.roleUpdated };
    },
  );
};
