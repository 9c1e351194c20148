import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import { admitConsoleViewer } from '../domain/consoles/console-admission';
import {
  consoleEnds,
  createOpenConsoles,
  type OpenConsoles,
} from '../domain/consoles/open-consoles';
import type { EventHub } from '../domain/events/hub';
import { deriveConsoleTicketKey } from '../providers/console-ticket';
import type { DriverMap } from '../providers/registry';
import { CONSOLE_GATEWAY_PATH, SIM_CONSOLE_PATH } from '../providers/setup';
import { registerSimConsole } from '../providers/sim/console-page';
import { SimDriver } from '../providers/sim/driver';
import { sessionToken } from './authenticate';
import { registerConsoleGateway } from './console-gateway';
import type { AdmitConsole } from './console-socket';

declare module 'fastify' {
  interface FastifyInstance {
    /** The consoles open in this process (tests sweep them by hand). */
    consoles: OpenConsoles;
  }
}

/**
 * The VMs' consoles: the sim's page and the gateway's, both behind tickets bound to the viewer's
 * session, user and VM (`domain/consoles/console-admission.ts`), their websockets checked
 * against PUBLIC_URL's origin, and the open ones held to the rules of `open-consoles.ts`.
 */
export async function registerConsoles(
  app: FastifyInstance,
  deps: {
    config: Config;
    db: Db;
    clock: Clock;
    hub: EventHub;
    listen: Database['listen'];
    drivers: DriverMap;
    distDir?: string;
  },
) {
  const { config, db, clock } = deps;
  const consoles = await createOpenConsoles({
    db,
    clock,
    hub: deps.hub,
    listen: deps.listen,
    log: app.log,
  });
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 1024 * 1024 },
    // Instead of the plugin's own, which would close every socket first with no code: the open
    // consoles are told the server restarts (1012), and so is any socket not yet a console. Not
    // waited for: a browser that does not answer the close would hold the shutdown.
    preClose: async () => {
      await consoles.close();
      for (const socket of app.websocketServer.clients) {
        socket.close(consoleEnds.shutdown.code, consoleEnds.shutdown.reason);
      }
      app.websocketServer.close();
    },
  });
  app.decorate('consoles', consoles);

  const key = deriveConsoleTicketKey(config.appSecret);
  const { publicOrigin } = config;
  const admit: AdmitConsole = (request, accepts, consume) =>
    admitConsoleViewer(db, {
      key,
      ticket: request.params.ticket,
      sessionToken: sessionToken(request),
      now: clock.now(),
      accepts,
      consume,
    });

  const sim = deps.drivers.get('sim');
  if (sim instanceof SimDriver) {
    registerSimConsole(app, {
      path: `${config.basePath}${SIM_CONSOLE_PATH}`,
      publicOrigin,
      sim,
      consoles,
      admit,
    });
  }
  registerConsoleGateway(app, {
    path: `${config.basePath}${CONSOLE_GATEWAY_PATH}`,
    basePath: config.basePath,
    publicOrigin,
    drivers: deps.drivers,
    consoles,
    admit,
    distDir: deps.distDir,
  });
  return consoles;
}
