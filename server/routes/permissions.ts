import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  assignPermissionsBody,
  assignPermissionsResponse,
  listPermissionsResponse,
  permissionMessages,
} from '../../src/api/contract/permissions';
import { teamIdParam } from '../../src/api/contract/teams';
import { assignTeamRoles, listTeamPermissions } from '../domain/tenancy/team-members';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** Per-team permissions: who holds which role, and bulk assignment. */
export const permissionRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  app.get(
    '/list/:id',
    { schema: { params: teamIdParam, response: { 200: listPermissionsResponse } } },
    async (request) => {
      const teamId = request.params.id;
      const entries = await listTeamPermissions(deps.db, caller(request), teamId);
      return { data: { teamId, entries }, message: 'OK' };
    },
  );

  app.post(
    '/assign',
    { schema: { body: assignPermissionsBody, response: { 200: assignPermissionsResponse } } },
    async (request) => {
      const { teamId, assignments } = request.body;
      await assignTeamRoles(deps.db, caller(request), teamId, assignments, deps.clock.now());
      return { data: null, message: permissionMessages.permissionsAssigned };
    },
  );
};
