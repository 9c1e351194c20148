import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyEnvelope } from '../../src/api/contract/envelope';
import {
  secondFactorMessages,
  secondFactorPolicy,
  secondFactorPolicyResponse,
  secondFactorStatusResponse,
  totpConfirmBody,
  totpConfirmResponse,
  totpDisableBody,
  totpEnrollResponse,
} from '../../src/api/contract/second-factor';
import { secondFactorStatusOf } from '../domain/identity/second-step';
import {
  readSecondFactorPolicy,
  saveSecondFactorPolicy,
} from '../domain/identity/second-factor-policy';
import { confirmTotpEnrolment, disableTotp, enrolTotp } from '../domain/identity/totp-settings';
import { requireAdmin } from '../domain/tenancy/access';
import { caller, sessionCaller } from '../plugins/authenticate';
import { authRateLimit } from './auth-rate-limit';
import type { RouteOptions } from './deps';

/**
 * The caller's second factors (`/auth/secondFactor`) and their authenticator app
 * (`/auth/totp/*`): set up from a signed-in session only, never with an API token. A user whose
 * company requires an app or a passkey may call these before having one.
 */
export const secondFactorRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const rateLimit = authRateLimit(deps.config);

  // Also for a session still waiting for its second step: the one-time-code page asks which.
  app.get(
    '/secondFactor',
    {
      config: { auth: 'pending', allowedBeforeSecondFactor: true },
      schema: { response: { 200: secondFactorStatusResponse } },
    },
    async (request) => ({
      data: await secondFactorStatusOf(deps.db, sessionCaller(request).userId),
      message: 'OK',
    }),
  );

  const totpConfig = { sessionOnly: true, allowedBeforeSecondFactor: true, rateLimit };

  app.post(
    '/totp/enroll',
    { config: totpConfig, schema: { response: { 200: totpEnrollResponse } } },
    async (request) => {
      const data = await enrolTotp(deps, sessionCaller(request));
      request.log.info({ userId: sessionCaller(request).userId }, 'authenticator app enrolling');
      return { data, message: 'OK' };
    },
  );

  app.post(
    '/totp/confirm',
    {
      config: totpConfig,
      schema: { body: totpConfirmBody, response: { 200: totpConfirmResponse } },
    },
    async (request) => {
      const who = sessionCaller(request);
      const recoveryCodes = await confirmTotpEnrolment(deps, who, request.body.code);
      request.log.info({ userId: who.userId }, 'authenticator app turned on');
      return { data: { recoveryCodes }, message: secondFactorMessages.totpEnabled };
    },
  );

  app.post(
    '/totp/disable',
    {
      config: { sessionOnly: true, rateLimit },
      schema: { body: totpDisableBody, response: { 200: emptyEnvelope } },
    },
    async (request) => {
      const who = sessionCaller(request);
      await disableTotp(deps, who, request.body);
      request.log.info({ userId: who.userId }, 'authenticator app turned off');
      return { data: null, message: secondFactorMessages.totpDisabled };
    },
  );
};

/**
 * `/company/secondFactorPolicy`: whether every user of the caller's company must sign in with an
 * authenticator app or a passkey. Anyone of the company reads it; only its Admins change it.
 */
export const companyPolicyRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  app.get(
    '/secondFactorPolicy',
    {
      config: { allowedBeforeSecondFactor: true },
      schema: { response: { 200: secondFactorPolicyResponse } },
    },
    async (request) => ({
      data: await readSecondFactorPolicy(deps.db, caller(request).companyId),
      message: 'OK',
    }),
  );

  app.put(
    '/secondFactorPolicy',
    {
      schema: { body: secondFactorPolicy, response: { 200: secondFactorPolicyResponse } },
      // Before the body is read: a user who may not change it gets the same answer whatever
      // they send.
      preValidation: async (request) => {
        requireAdmin(caller(request), secondFactorMessages.policyAdminsOnly);
      },
    },
    async (request) => {
      const who = caller(request);
      const data = await saveSecondFactorPolicy(deps.db, who, request.body, deps.clock.now());
      request.log.info({ required: data.requireStrongSecondFactor }, 'second-factor policy saved');
      return { data, message: secondFactorMessages.policySaved };
    },
  );
};
