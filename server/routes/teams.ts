import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addTeamUserBody,
  createTeamBody,
  createTeamResponse,
  deleteTeamBody,
  listTeamsQuery,
  listTeamsResponse,
  removeTeamUserBody,
  teamActionResponse,
  teamDetailsQuery,
  teamDetailsResponse,
  teamIdParam,
  teamMessages,
  updateTeamBody,
} from '../../src/api/contract/teams';
import { addTeamMember, removeTeamMember } from '../domain/tenancy/team-members';
import {
  createTeam,
  deleteTeam,
  findTeamDetails,
  listTeams,
  renameTeam,
} from '../domain/tenancy/teams';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** Teams: list, details, create, update, members, delete. */
export const teamRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db, clock } = deps;

  app.get(
    '/list',
    { schema: { querystring: listTeamsQuery, response: { 200: listTeamsResponse } } },
    async (request) => {
      const page = await listTeams(db, caller(request), request.query);
      return { data: page, message: 'OK' };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        params: teamIdParam,
        querystring: teamDetailsQuery,
        response: { 200: teamDetailsResponse },
      },
    },
    async (request) => {
      const team = await findTeamDetails(db, caller(request), request.params.id, request.query);
      return { data: team, message: 'OK' };
    },
  );

  app.post(
    '/create',
    { schema: { body: createTeamBody, response: { 200: createTeamResponse } } },
    async (request) => {
      const { name, parentTeamId } = request.body;
      const teamId = await createTeam(db, caller(request), {
        name,
        parentTeamId,
        now: clock.now(),
      });
      request.log.info({ teamId }, 'team created');
      return { data: { teamId }, message: teamMessages.created };
    },
  );

  app.post(
    '/update',
    { schema: { body: updateTeamBody, response: { 200: teamActionResponse } } },
    async (request) => {
      await renameTeam(db, caller(request), { ...request.body, now: clock.now() });
      return { data: null, message: teamMessages.updated };
    },
  );

  app.post(
    '/addUser',
    { schema: { body: addTeamUserBody, response: { 200: teamActionResponse } } },
    async (request) => {
      await addTeamMember(db, caller(request), { ...request.body, now: clock.now() });
      return { data: null, message: teamMessages.memberAdded };
    },
  );

  app.delete(
    '/removeUser',
    { schema: { body: removeTeamUserBody, response: { 200: teamActionResponse } } },
    async (request) => {
      await removeTeamMember(db, caller(request), { ...request.body, now: clock.now() });
      return { data: null, message: teamMessages.memberRemoved };
    },
  );

  app.delete(
    '/delete',
    { schema: { body: deleteTeamBody, response: { 200: teamActionResponse } } },
    async (request) => {
      const { teamId } = request.body;
      await deleteTeam(db, caller(request), { teamId, now: clock.now() });
      request.log.info({ teamId }, 'team deleted');
      return { data: null, message: teamMessages.deleted };
    },
  );
};
