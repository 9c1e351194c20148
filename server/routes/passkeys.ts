import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authMessages } from '../../src/api/contract/auth';
import {
  createPasskeyBody,
  createPasskeyResponse,
  deletePasskeyResponse,
  listPasskeysResponse,
  passkeyIdParam,
  passkeyLoginBody,
  passkeyLoginResponse,
  passkeyMessages,
  passkeyMfaBody,
  passkeyMfaResponse,
  passkeyOptionsResponse,
  renamePasskeyBody,
  renamePasskeyResponse,
} from '../../src/api/contract/passkeys';
import { trimUserAgent } from '../domain/identity/session-list';
import { DEFAULT_BRAND } from '../domain/identity/users-repository';
import {
  loginOptions,
  loginWithPasskey,
  secondStepOptions,
  verifySecondStep,
} from '../domain/passkeys/passkey-sign-in';
import {
  deletePasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  renamePasskey,
} from '../domain/passkeys/passkeys';
import { relyingPartyOf } from '../domain/passkeys/relying-party';
import { forbidden } from '../http-error';
import { callerProfile, sessionCaller } from '../plugins/authenticate';
import { sendSessionToken } from '../plugins/session-cookie';
import { authRateLimit } from './auth-rate-limit';
import type { RouteOptions } from './deps';

/**
 * Passkeys and security keys (WebAuthn): registered and managed by a signed-in session (Profile →
 * Security), the second step of a sign-in instead of the e-mailed code, and a sign-in without the
 * password. Rate-limited per client address like the other sign-in routes.
 */
export const passkeyRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db, clock, config } = deps;
  const rateLimit = authRateLimit(config);
  const rpOf = (request: FastifyRequest, name = DEFAULT_BRAND) =>
    relyingPartyOf({ db, config }, request, name);
  // A user whose company requires a strong second factor may set one up before anything else.
  const ownConfig = {
    sessionOnly: true,
    rateLimit,
    allowedBeforeSecondFactor: true,
  } as const;

  app.post(
    '/createOptions',
    {
      config: { ...ownConfig, profile: true },
      schema: { response: { 200: passkeyOptionsResponse } },
    },
    async (request) => {
      const { userId, sessionId } = sessionCaller(request);
      const rp = await rpOf(request, callerProfile(request).resellerName ?? DEFAULT_BRAND);
      const data = await registrationOptions(
        { db, appSecret: config.appSecret },
        { userId, sessionId, rp, now: clock.now() },
      );
      return { data: { ...data }, message: 'OK' };
    },
  );

  app.post(
    '/create',
    {
      config: ownConfig,
      schema: { body: createPasskeyBody, response: { 200: createPasskeyResponse } },
    },
    async (request) => {
      const { userId, sessionId } = sessionCaller(request);
      const data = await registerPasskey(db, {
        userId,
        sessionId,
        rp: await rpOf(request),
        body: request.body,
        now: clock.now(),
      });
      request.log.info({ passkeyId: data.id, discoverable: data.discoverable }, 'passkey added');
      return { data, message: passkeyMessages.created };
    },
  );

  app.get(
    '/list',
    { config: ownConfig, schema: { response: { 200: listPasskeysResponse } } },
    async (request) => ({
      data: await listPasskeys(db, sessionCaller(request).userId),
      message: 'OK',
    }),
  );

  app.put(
    '/rename/:id',
    {
      config: ownConfig,
      schema: {
        params: passkeyIdParam,
        body: renamePasskeyBody,
        response: { 200: renamePasskeyResponse },
      },
    },
    async (request) => {
      const data = await renamePasskey(db, {
        userId: sessionCaller(request).userId,
        id: request.params.id,
        name: request.body.name,
      });
      return { data, message: passkeyMessages.renamed };
    },
  );

  app.delete(
    '/delete/:id',
    {
      config: ownConfig,
      schema: { params: passkeyIdParam, response: { 200: deletePasskeyResponse } },
    },
    async (request) => {
      await deletePasskey(db, { userId: sessionCaller(request).userId, id: request.params.id });
      request.log.info({ passkeyId: request.params.id }, 'passkey removed');
      return { data: null, message: passkeyMessages.deleted };
    },
  );

  // The second step of a sign-in: a session that has passed the password, not yet its code.
  app.post(
    '/mfaOptions',
    {
      config: { auth: 'pending', rateLimit },
      schema: { response: { 200: passkeyOptionsResponse } },
    },
    async (request) => {
      const { userId, sessionId } = sessionCaller(request);
      const data = await secondStepOptions(db, {
        userId,
        sessionId,
        rp: await rpOf(request),
        now: clock.now(),
      });
      return { data: { ...data }, message: 'OK' };
    },
  );

  app.post(
    '/mfa',
    {
      config: { auth: 'pending', rateLimit },
      schema: { body: passkeyMfaBody, response: { 200: passkeyMfaResponse } },
    },
    async (request) => {
      const { userId, sessionId } = sessionCaller(request);
      const user = await verifySecondStep(db, {
        userId,
        sessionId,
        rp: await rpOf(request),
        credential: request.body.credential,
        now: clock.now(),
      });
      request.log.info({ userId }, 'signed in with a passkey as the second step');
      return { data: { user }, message: authMessages.authenticated };
    },
  );

  // Without the password: anyone may ask; only a registered passkey's answer signs in.
  app.post(
    '/loginOptions',
    {
      config: { auth: 'public', rateLimit },
      schema: { response: { 200: passkeyOptionsResponse } },
    },
    async (request) => ({
      data: { ...(await loginOptions(db, { rp: await rpOf(request), now: clock.now() })) },
      message: 'OK',
    }),
  );

  app.post(
    '/login',
    {
      config: {
        auth: 'public',
        rateLimit,
        refusal: 'The passkey is not registered, or not for signing in without a password',
        forbidden: 'The company is suspended by its reseller: the message names whom to contact',
      },
      schema: { body: passkeyLoginBody, response: { 200: passkeyLoginResponse } },
    },
    async (request, reply) => {
      const result = await loginWithPasskey(
        { db, appSecret: config.appSecret },
        {
          rp: await rpOf(request),
          credential: request.body.credential,
          rememberMe: request.body.rememberMe,
          address: request.ip,
          userAgent: trimUserAgent(request.headers['user-agent']),
          now: clock.now(),
        },
      );
      if (result.outcome === 'suspended') {
        throw forbidden(authMessages.accountSuspended(result.supportEmail));
      }
      request.log.info({ userId: result.user.id }, 'signed in with a passkey, without a password');
      sendSessionToken(reply, config, result.token, request.body.rememberMe);
      return { data: { user: result.user }, message: authMessages.authenticated };
    },
  );
};
