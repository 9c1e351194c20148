import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { createWebSocketStream } from 'ws';
import type { Clock } from '../clock';
import { readConsoleTicket } from '../providers/console-ticket';
import type { ProviderDriver } from '../providers/driver';
import type { DriverMap } from '../providers/registry';

const unavailable = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console unavailable</title>
<style>html,body{margin:0;height:100%;background:#0b0f14;color:#c9d1d9;font:15px/1.5 system-ui,sans-serif}
main{padding:24px}</style></head>
<body><main>This console link has expired or the server is not running.</main></body></html>`;

/**
 * The console of engines whose guests' screens the product serves itself (`openConsole`): a
 * noVNC page at `<path><ticket>` and its websocket at `<path><ticket>/websockify`, which carries
 * the guest's RFB stream. The ticket (signed, short-lived, per engine) is checked for both, and
 * before the websocket is upgraded; the stream never becomes a TCP port of its own.
 */
export async function registerConsoleGateway(
  app: FastifyInstance,
  options: {
    path: string;
    basePath: string;
    secret: string;
    clock: Clock;
    drivers: DriverMap;
    distDir?: string;
  },
) {
  const pageFile = options.distDir && path.join(options.distDir, 'console.html');
  // Its assets are relative to the base path, like the console's own (see plugins/console.ts).
  const page =
    pageFile && existsSync(pageFile)
      ? readFileSync(pageFile, 'utf8').replace(
          '<head>',
          `<head>\n    <base href="${options.basePath.replace(/"/g, '&quot;')}" />`,
        )
      : undefined;
  const consoles = [...options.drivers.values()].filter((driver) => driver.openConsole);

  const resolve = (value: string): { driver: ProviderDriver; ref: string } | undefined => {
    for (const driver of consoles) {
      const ticket = readConsoleTicket(options.secret, driver.kind, value, options.clock.now());
      if (ticket) return { driver, ref: ticket.ref };
    }
    return undefined;
  };
  const refuse = (reply: FastifyReply, code: number) =>
    reply
      .code(code)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(unavailable);

  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 * 1024 } });

  app.get<{ Params: { ticket: string } }>(
    `${options.path}:ticket`,
    { config: { auth: 'public' } },
    async (request, reply) => {
      if (!page || !resolve(request.params.ticket)) return refuse(reply, 404);
      return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
    },
  );

  app.get<{ Params: { ticket: string } }>(
    `${options.path}:ticket/websockify`,
    {
      websocket: true,
      config: { auth: 'public' },
      // Refused before the upgrade: a bad ticket never gets a websocket.
      preValidation: async (request, reply) => {
        if (!resolve(request.params.ticket)) await refuse(reply, 403);
      },
    },
    async (socket, request) => {
      const target = resolve(request.params.ticket);
      if (!target) {
        socket.close(1008, 'The console link has expired');
        return;
      }
      let stream;
      try {
        stream = await target.driver.openConsole!(target.ref);
      } catch (error) {
        request.log.warn({ err: error }, 'console stream could not be opened');
        socket.close(1011, 'The console of this server cannot be reached');
        return;
      }
      const browser = createWebSocketStream(socket);
      const done = () => {
        browser.destroy();
        stream.destroy();
      };
      void Promise.all([
        pipeline(browser, stream).catch(done),
        pipeline(stream, browser).catch(done),
      ]);
    },
  );
}
