import type { FastifyReply } from 'fastify';
import type { Config } from '../config';
import { REMEMBERED_SESSION_TTL_MS } from '../domain/identity/sessions';

export const SESSION_COOKIE = 'launchpad_session';

const cookieOptions = (config: Pick<Config, 'cookieSecure' | 'basePath'>) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: config.cookieSecure,
  path: config.basePath,
});

/**
 * Hands the session token to the browser twice: the bearer header the console stores, and an
 * HttpOnly cookie scripts cannot read. Without Remember me the cookie ends with the browser.
 */
export function sendSessionToken(
  reply: FastifyReply,
  config: Pick<Config, 'cookieSecure' | 'basePath'>,
  token: string,
  rememberMe: boolean,
) {
  reply.header('Authorization', `Bearer ${token}`);
  reply.setCookie(SESSION_COOKIE, token, {
    ...cookieOptions(config),
    ...(rememberMe ? { maxAge: REMEMBERED_SESSION_TTL_MS / 1000 } : {}),
  });
}

export function clearSessionCookie(
  reply: FastifyReply,
  config: Pick<Config, 'cookieSecure' | 'basePath'>,
) {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(config));
}
