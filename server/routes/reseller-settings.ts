import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  resellerSettingsMessages,
  resellerSettingsResponse,
  updateResellerSettingsBody,
  updateResellerSettingsResponse,
} from '../../src/api/contract/reseller-settings';
import { resellerScope } from '../domain/reseller/reseller-scope';
import { readResellerSettings } from '../domain/reseller/settings-records';
import { saveResellerSettings } from '../domain/reseller/settings-save';
import { requireAdmin } from '../domain/tenancy/access';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/**
 * The reseller's own settings (its brand, support e-mail, order forms and domains): read by any
 * of its staff, changed by their Admins. Like the rest of the reseller's console, anyone else gets
 * the 404 of a route that does not exist (`config.resellerOnly`, set on every route here).
 */
export const resellerSettingsRoutes: FastifyPluginAsyncZod<RouteOptions> = async (
  app,
  { deps },
) => {
  const { db, config } = deps;

  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, resellerOnly: true };
  });

  app.get(
    '/settings',
    { schema: { response: { 200: resellerSettingsResponse } } },
    async (request) => {
      const { resellerId } = await resellerScope(db, caller(request));
      return { data: await readResellerSettings(db, config, resellerId), message: 'OK' };
    },
  );

  app.put(
    '/settings',
    {
      schema: {
        body: updateResellerSettingsBody,
        response: { 200: updateResellerSettingsResponse },
      },
      // Before the body is read: whoever may not change the settings gets the same answer
      // whatever they send (a user flagged as a reseller outside a staff company, the 404).
      preValidation: async (request) => {
        const who = caller(request);
        await resellerScope(db, who);
        requireAdmin(who, resellerSettingsMessages.adminsOnly);
      },
    },
    async (request) => {
      const { settings, domainsChanged } = await saveResellerSettings(
        deps,
        deps.txtLookup,
        caller(request),
        request.body,
      );
      request.log.info(
        { domains: settings.domains.length, domainsChanged },
        'reseller settings saved',
      );
      return { data: settings, message: resellerSettingsMessages.saved };
    },
  );
};
