import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { apiTokenMessages } from '../../src/api/contract/api-tokens';
import { authMessages } from '../../src/api/contract/auth';
import { secondFactorMessages } from '../../src/api/contract/second-factor';
import type { User } from '../../src/api/contract/auth';
import {
  apiTokenCaller,
  findLiveApiToken,
  isApiTokenSecret,
  noteApiTokenUse,
} from '../domain/identity/api-tokens';
import { findLiveSession, type SessionCaller } from '../domain/identity/sessions';
import { isWellFormedSecretToken } from '../domain/identity/secret-tokens';
import { findUserProfile } from '../domain/identity/users-repository';
import { forbidden, notFound, unauthorized } from '../http-error';
import type { ApiDeps } from '../routes/deps';
import { SESSION_COOKIE } from './session-cookie';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's live session; null on public routes and for anonymous callers. */
    auth: SessionCaller | null;
    /** The caller's profile, on routes with `config.profile`. */
    profile: User | null;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  return request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compared as digests so that neither the length nor the content leaks through timing. */
function isOperatorToken(request: FastifyRequest, operatorToken: string | undefined): boolean {
  const bearer = bearerToken(request);
  if (!operatorToken || !bearer) return false;
  return timingSafeEqual(digest(bearer), digest(operatorToken));
}

/**
 * The bearer header wins over the cookie: it is what the console sends explicitly. An API token
 * is never a session token, whichever way it comes.
 */
export function sessionToken(request: FastifyRequest): string | undefined {
  const token = bearerToken(request) ?? request.cookies[SESSION_COOKIE];
  return token && isWellFormedSecretToken(token) ? token : undefined;
}

/**
 * One hook decides who may call each API route (route `config.auth`): public routes skip it,
 * `pending` accepts a session whose one-time code is not checked yet, the rest need a verified one.
 * A user whose password must be reset reaches only the routes that allow it; the reseller's
 * console (`config.resellerOnly`) answers anyone else as a route that does not exist.
 */
export function registerAuthentication(
  app: FastifyInstance,
  deps: Pick<ApiDeps, 'db' | 'clock' | 'config'>,
) {
  app.decorateRequest('auth', null);
  app.decorateRequest('profile', null);
  app.addHook('onRequest', async (request) => {
    // Fastify builds `routeOptions` afresh on every read.
    const route = request.routeOptions.config;
    const required = route.auth;
    if (required === 'public') return;
    if (required === 'operator') {
      if (!deps.config.operatorToken) throw forbidden(authMessages.operatorTokenUnset);
      if (!isOperatorToken(request, deps.config.operatorToken)) {
        throw unauthorized(authMessages.operatorTokenRequired);
      }
      return;
    }
    const bearer = bearerToken(request);
    if (bearer && isApiTokenSecret(bearer)) {
      await authenticateApiToken(request, bearer, deps);
      return;
    }
    const token = sessionToken(request);
    const withProfile = route.profile === true;
    const session = token
      ? await findLiveSession(deps.db, token, deps.clock.now(), { withProfile })
      : undefined;
    if (!session) throw unauthorized(authMessages.notAuthenticated);
    if (required !== 'pending' && !session.verified) {
      throw unauthorized(authMessages.verificationRequired);
    }
    if (route.resellerOnly && !session.isReseller) throw notFound();
    if (session.mustResetPassword && required !== 'pending' && !route.allowedDuringPasswordReset) {
      throw forbidden(authMessages.passwordResetRequired);
    }
    if (session.mustEnrolSecondFactor && required !== 'pending' && !enrolmentAllows(route)) {
      throw forbidden(secondFactorMessages.enrolmentRequired);
    }
    const { profile, ...auth } = session;
    request.auth = auth;
    request.profile = profile ?? null;
  });
}

/**
 * A call with an API token acts as its user, with the user's current rights (read with the token),
 * and only on the routes a token may use: a `read` token only reads.
 */
async function authenticateApiToken(
  request: FastifyRequest,
  secret: string,
  deps: Pick<ApiDeps, 'db' | 'clock'>,
) {
  const route = request.routeOptions.config;
  const now = deps.clock.now();
  const token = await findLiveApiToken(deps.db, secret, now);
  if (!token) throw unauthorized(authMessages.notAuthenticated);
  if (token.suspended) throw forbidden(authMessages.accountSuspended(token.resellerEmail));
  // Before the token's own limits: whoever is not a reseller must not learn the route is there.
  // The customers belong to no team, so a token narrowed to teams reaches none of them.
  if (route.resellerOnly && (!token.isReseller || token.teamIds)) throw notFound();
  if (route.auth === 'pending' || route.sessionOnly) throw forbidden(apiTokenMessages.sessionOnly);
  const reads = (request.method === 'GET' || request.method === 'HEAD') && !route.grantsControl;
  if (token.access === 'read' && !reads) {
    throw forbidden(apiTokenMessages.readOnly);
  }
  if (token.mustResetPassword && !route.allowedDuringPasswordReset) {
    throw forbidden(authMessages.passwordResetRequired);
  }
  if (token.mustEnrolSecondFactor && !enrolmentAllows(route)) {
    throw forbidden(secondFactorMessages.enrolmentRequired);
  }
  await noteApiTokenUse(deps.db, token, request.ip, now);
  request.auth = {
    ...apiTokenCaller(token),
    sessionId: null,
    apiTokenId: token.tokenId,
    isReseller: token.isReseller,
    verified: true,
    mustResetPassword: token.mustResetPassword,
    mustEnrolSecondFactor: token.mustEnrolSecondFactor,
  };
  if (route.profile) request.profile = (await findUserProfile(deps.db, token.userId)) ?? null;
}

/**
 * What a user whose company requires an authenticator app or a passkey may still do before they
 * have one: set one up, and what a forced password reset allows (the session check, the profile,
 * the password change).
 */
const enrolmentAllows = (route: FastifyContextConfig) =>
  route.allowedBeforeSecondFactor === true || route.allowedDuringPasswordReset === true;

/** The caller's profile on a route with `config.profile`. */
export function callerProfile(request: FastifyRequest): User {
  if (!request.profile) throw unauthorized(authMessages.notAuthenticated);
  return request.profile;
}

/** The authenticated caller of a route that is not public. */
export function caller(request: FastifyRequest): SessionCaller {
  if (!request.auth) throw unauthorized(authMessages.notAuthenticated);
  return request.auth;
}

/** The caller of a route that needs a signed-in session (`config.sessionOnly`, or a session's own). */
export function sessionCaller(request: FastifyRequest): SessionCaller & { sessionId: number } {
  const who = caller(request);
  if (who.sessionId === null) throw forbidden(apiTokenMessages.sessionOnly);
  return { ...who, sessionId: who.sessionId };
}
