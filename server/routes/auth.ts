import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authMessages,
  checkResponse,
  loginBody,
  mfaResponse,
  refreshResponse,
  shouldResetResponse,
} from '../../src/api/contract/auth';
import { emptyEnvelope } from '../../src/api/contract/envelope';
import {
  loginAnswer,
  secondFactorMessages,
  secondStepBody,
} from '../../src/api/contract/second-factor';
import type { SecondStepCheck } from '../domain/identity/second-step';
import { renewSession, revokeSessionByToken } from '../domain/identity/sessions';
import { trimUserAgent } from '../domain/identity/session-list';
import { signIn, verifySignInCode } from '../domain/identity/sign-in';
import { findUserProfile } from '../domain/identity/users-repository';
import {
  badRequest,
  forbidden,
  tooManyRequests,
  unauthorized,
  type HttpError,
} from '../http-error';
import { caller, callerProfile, sessionCaller, sessionToken } from '../plugins/authenticate';
import { clearSessionCookie, sendSessionToken } from '../plugins/session-cookie';
import { authRateLimit } from './auth-rate-limit';
import type { RouteOptions } from './deps';

function codeRefused(outcome: Exclude<SecondStepCheck, 'verified'>): HttpError {
  switch (outcome) {
    case 'invalid':
      return badRequest(authMessages.invalidCode, 'code');
    case 'expired':
      return badRequest(authMessages.codeExpired, 'code');
    case 'already-used':
      return badRequest(authMessages.codeAlreadyUsed, 'code');
    case 'replayed':
      return badRequest(secondFactorMessages.codeReused, 'code');
    case 'exhausted':
      return tooManyRequests(authMessages.retriesExhausted);
  }
}

/**
 * Sign-in: password, then the e-mailed one-time code (or the authenticator app's code, or a
 * recovery code); sign-out; the session check.
 */
export const authRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const rateLimit = authRateLimit(deps.config);

  app.post(
    '/login',
    {
      config: {
        auth: 'public',
        refusal: 'The email or the password is wrong',
        forbidden: 'The company is suspended by its reseller: the message names whom to contact',
        rateLimit,
      },
      schema: { body: loginBody, response: { 200: loginAnswer } },
    },
    async (request, reply) => {
      const result = await signIn(deps, {
        ...request.body,
        address: request.ip,
        userAgent: trimUserAgent(request.headers['user-agent']),
      });
      if (result.outcome === 'throttled') throw tooManyRequests(authMessages.accountThrottled);
      if (result.outcome === 'rejected') throw unauthorized(authMessages.invalidCredentials);
      if (result.outcome === 'suspended') {
        throw forbidden(authMessages.accountSuspended(result.supportEmail));
      }
      request.log.info(
        { userId: result.user.id, secondFactor: result.secondFactor },
        'password accepted; second step pending',
      );
      sendSessionToken(reply, deps.config, result.token, request.body.rememberMe);
      const { user, secondFactor, passkey } = result;
      const message =
        secondFactor === 'totp' ? secondFactorMessages.appCodeAsked : authMessages.codeSent;
      return { data: { user, secondFactor, passkey }, message };
    },
  );

  app.post(
    '/mfa',
    {
      config: { auth: 'pending', rateLimit },
      schema: { body: secondStepBody, response: { 200: mfaResponse } },
    },
    async (request) => {
      const { sessionId, userId } = sessionCaller(request);
      const result = await verifySignInCode(deps, { sessionId, userId, code: request.body.code });
      if (result.outcome !== 'verified') {
        request.log.info({ userId, outcome: result.outcome }, 'sign-in code refused');
        throw codeRefused(result.outcome);
      }
      request.log.info({ userId }, 'signed in');
      return { data: { user: result.user }, message: authMessages.authenticated };
    },
  );

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = sessionToken(request);
    if (token) await revokeSessionByToken(deps.db, token, deps.clock.now());
    clearSessionCookie(reply, deps.config);
    return { data: null, message: authMessages.loggedOut };
  };
  const logoutOptions = {
    config: { auth: 'public' as const, rateLimit },
    schema: { response: { 200: emptyEnvelope } },
  };
  app.post('/logout', logoutOptions, logout);
  app.delete('/logout', logoutOptions, logout);

  app.get(
    '/check',
    {
      config: { allowedDuringPasswordReset: true, profile: true },
      schema: { response: { 200: checkResponse } },
    },
    async (request) => ({
      data: { user: callerProfile(request) },
      message: authMessages.authenticated,
    }),
  );

  // Keeps an active user signed in: the session's expiry starts over (within its maximum age), and
  // the Remember me cookie gets the new lifetime.
  app.post(
    '/refreshAuth',
    {
      config: { allowedDuringPasswordReset: true, sessionOnly: true },
      schema: { response: { 200: refreshResponse } },
    },
    async (request, reply) => {
      const { sessionId, userId } = sessionCaller(request);
      const renewed = await renewSession(deps.db, sessionId, deps.clock.now());
      const user = renewed && (await findUserProfile(deps.db, userId));
      const token = sessionToken(request);
      if (!renewed || !user || !token) throw unauthorized(authMessages.notAuthenticated);
      sendSessionToken(reply, deps.config, token, renewed.rememberMe);
      return {
        data: { user, expiresAt: renewed.expiresAt },
        message: authMessages.sessionRenewed,
      };
    },
  );

  // Also for a session whose code is not checked yet: the answer is the caller's own state.
  app.post(
    '/shouldResetPassword',
    { config: { auth: 'pending' }, schema: { response: { 200: shouldResetResponse } } },
    async (request) => ({
      data: { shouldReset: caller(request).mustResetPassword },
      message: 'OK',
    }),
  );
};
