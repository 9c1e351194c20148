import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authMessages } from '../../src/api/contract/auth';
import { emptyEnvelope } from '../../src/api/contract/envelope';
import {
  confirmEmailBody,
  createUserBody,
  createUserResponse,
  deleteUserResponse,
  editUserBody,
  editUserResponse,
  forgotPasswordBody,
  listUsersQuery,
  listUsersResponse,
  meResponse,
  registerBody,
  resetPasswordBody,
  tokenParam,
  updatePasswordBody,
  userDetailsResponse,
  userIdParam,
  userMessages,
  userTeamsQuery,
  userTeamsResponse,
} from '../../src/api/contract/users';
import { teamRoleOf, visibleTeamIds } from '../domain/tenancy/access';
import { activateAccount, sendActivationLink } from '../domain/identity/account-activation';
import { resetPasswordWithToken, sendPasswordResetLink } from '../domain/identity/account-recovery';
import { changePassword } from '../domain/identity/password-change';
import { deleteUser, editUserNames, inviteUser } from '../domain/identity/user-management';
import {
  findCompanyUser,
  listCompanyUsers,
  listUserTeams,
} from '../domain/identity/users-repository';
import { badRequest, notFound } from '../http-error';
import { caller, callerProfile, sessionCaller } from '../plugins/authenticate';
import { authRateLimit } from './auth-rate-limit';
import type { RouteOptions } from './deps';

const invalidLink = () => badRequest(authMessages.invalidResetLink, 'token');

/** The signed-in user, the company's users (Admins manage them), and the e-mailed account links. */
export const userRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const rateLimit = authRateLimit(deps.config);
  const publicLimited = { auth: 'public' as const, rateLimit };

  app.get(
    '/me',
    {
      config: { allowedDuringPasswordReset: true, profile: true },
      schema: { response: { 200: meResponse } },
    },
    async (request) => ({ data: callerProfile(request), message: 'OK' }),
  );

  app.get(
    '/list',
    { schema: { querystring: listUsersQuery, response: { 200: listUsersResponse } } },
    async (request) => {
      const who = caller(request);
      const { excludeTeamId } = request.query;
      if (
        excludeTeamId !== undefined &&
        (await teamRoleOf(deps.db, who, excludeTeamId)) === undefined
      ) {
        throw notFound(userMessages.teamNotFound);
      }
      const page = await listCompanyUsers(deps.db, who.companyId, request.query);
      return { data: page, message: 'OK' };
    },
  );

  app.get(
    '/details/:id',
    { schema: { params: userIdParam, response: { 200: userDetailsResponse } } },
    async (request) => {
      const user = await findCompanyUser(deps.db, caller(request).companyId, request.params.id);
      if (!user) throw notFound(userMessages.notFound);
      return { data: user, message: 'OK' };
    },
  );

  // Admins and the user themself see every membership; other members only those of the teams
  // they share with the user.
  app.get(
    '/teams/:id',
    {
      schema: {
        params: userIdParam,
        querystring: userTeamsQuery,
        response: { 200: userTeamsResponse },
      },
    },
    async (request) => {
      const who = caller(request);
      const userId = request.params.id;
      if (!(await findCompanyUser(deps.db, who.companyId, userId))) {
        throw notFound(userMessages.notFound);
      }
      const own = userId === who.userId && !who.teamScope;
      const teamIds = own ? 'all' : await visibleTeamIds(deps.db, who);
      const page = await listUserTeams(deps.db, {
        companyId: who.companyId,
        userId,
        teamIds,
        query: request.query,
      });
      return { data: page, message: 'OK' };
    },
  );

  app.post(
    '/create',
    { schema: { body: createUserBody, response: { 200: createUserResponse } } },
    async (request) => {
      const { email, roleId, teamIds } = request.body;
      const id = await inviteUser(
        deps,
        caller(request),
        { email, roleId, teamIds },
        request.hostname,
      );
      request.log.info({ userId: id }, 'user invited');
      return { data: { id }, message: `${userMessages.created} ${email}` };
    },
  );

  app.post(
    '/edit',
    { schema: { body: editUserBody, response: { 200: editUserResponse } } },
    async (request) => {
      await editUserNames(deps, caller(request), request.body);
      return { data: null, message: userMessages.updated };
    },
  );

  app.delete(
    '/delete/:id',
    { schema: { params: userIdParam, response: { 200: deleteUserResponse } } },
    async (request) => {
      await deleteUser(deps, caller(request), request.params.id);
      request.log.info({ userId: request.params.id }, 'user deleted; sessions ended');
      return { data: null, message: userMessages.deleted };
    },
  );

  // Known and unknown addresses get the same answer at the same speed: the lookup and the
  // e-mail happen after the answer has gone.
  app.post(
    '/forgotPassword',
    {
      config: publicLimited,
      schema: { body: forgotPasswordBody, response: { 200: emptyEnvelope } },
    },
    async (request) => {
      const { email } = request.body;
      // On the host asked: a reseller's domain keeps its customers on it.
      const host = request.hostname;
      deps.background.run('password reset e-mail', () => sendPasswordResetLink(deps, email, host));
      return { data: null, message: authMessages.forgotPasswordSent };
    },
  );

  app.post(
    '/resetPasswordFromEmail/:token',
    {
      config: publicLimited,
      schema: { params: tokenParam, body: resetPasswordBody, response: { 200: emptyEnvelope } },
    },
    async (request) => {
      const { token } = request.params;
      const { id, password, resetKey } = request.body;
      if (resetKey !== undefined && resetKey !== token) throw invalidLink();
      if (!(await resetPasswordWithToken(deps, { token, userId: id, password }))) {
        throw invalidLink();
      }
      request.log.info({ userId: id }, 'password reset; all sessions revoked');
      return { data: null, message: authMessages.passwordReset };
    },
  );

  app.post(
    '/confirmEmail/:token',
    {
      config: publicLimited,
      schema: { params: tokenParam, body: confirmEmailBody, response: { 200: emptyEnvelope } },
    },
    async (request) => {
      const { token } = request.params;
      const { id, password, resetKey, firstName, lastName } = request.body;
      if (resetKey !== undefined && resetKey !== token) throw invalidLink();
      const activated = await activateAccount(deps, {
        token,
        userId: id,
        password,
        firstName,
        lastName,
      });
      if (!activated) throw invalidLink();
      request.log.info({ userId: id }, 'account activated');
      return { data: null, message: authMessages.accountActivated };
    },
  );

  // Not a self sign-up: users are created by invitations and imports. This re-sends the
  // activation link, with one answer whatever the address.
  app.post(
    '/register',
    { config: publicLimited, schema: { body: registerBody, response: { 200: emptyEnvelope } } },
    async (request) => {
      const { email } = request.body;
      const host = request.hostname;
      deps.background.run('activation e-mail', () => sendActivationLink(deps, email, host));
      return { data: null, message: authMessages.activationLinkSent };
    },
  );

  app.post(
    '/updatePassword',
    {
      config: { rateLimit, allowedDuringPasswordReset: true, sessionOnly: true },
      schema: { body: updatePasswordBody, response: { 200: emptyEnvelope } },
    },
    async (request) => {
      const { userId, sessionId } = sessionCaller(request);
      const outcome = await changePassword(deps, { userId, sessionId, ...request.body });
      if (outcome === 'wrong-current') {
        throw badRequest(authMessages.currentPasswordIncorrect, 'currentPassword');
      }
      if (outcome === 'unchanged') throw badRequest(authMessages.passwordUnchanged, 'password');
      request.log.info({ userId }, 'password changed; other sessions revoked');
      return { data: null, message: authMessages.passwordUpdated };
    },
  );
};
