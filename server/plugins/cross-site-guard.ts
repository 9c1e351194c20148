import type { FastifyInstance } from 'fastify';
import { authMessages } from '../../src/api/contract/auth';
import { forbidden } from '../http-error';
import { isFromConsole } from '../http-origin';
import { SESSION_COOKIE } from './session-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A browser adds the session cookie to whatever a page of the same site sends, a plain HTML form
 * posted from a sibling sub-domain included (SameSite=Strict does not tell sites apart by
 * sub-domain). So a request that changes something and carries the cookie but no bearer header
 * must come from the console's own pages. The bearer header proves it by itself: no other page
 * can read the token to write it.
 */
export function registerCrossSiteGuard(app: FastifyInstance, options: { publicOrigin: string }) {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || request.headers.authorization !== undefined) return;
    if (request.cookies[SESSION_COOKIE] === undefined) return;
    if (!isFromConsole(request, options.publicOrigin)) throw forbidden(authMessages.crossSite);
  });
}
