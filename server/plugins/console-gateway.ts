import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OpenConsoles } from '../domain/consoles/open-consoles';
import type { DriverMap } from '../providers/registry';
import { registerConsoleSocket, type AdmitConsole } from './console-socket';

const unavailable = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console unavailable</title>
<style>html,body{margin:0;height:100%;background:#0b0f14;color:#c9d1d9;font:15px/1.5 system-ui,sans-serif}
main{padding:24px}</style></head>
<body><main>This console link has expired or the server is not running.</main></body></html>`;

/** The answer to a console link that is refused, for the page and the websocket alike. */
export const refuseConsole = (reply: FastifyReply, code: number) =>
  reply
    .code(code)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(unavailable);

/**
 * Whether a browser's message to a VNC server is the viewer's input (keys, pointer, clipboard):
 * anything but the screen-update requests noVNC sends on its own (FramebufferUpdateRequest,
 * EnableContinuousUpdates and Fence), read message by message.
 */
export function isRfbInput(data: Buffer): boolean {
  let at = 0;
  while (at < data.length) {
    const type = data[at];
    if (type === 3 || type === 150) at += 10;
    else if (type === 248 && at + 9 <= data.length) at += 9 + data[at + 8]!;
    else return true;
  }
  return false;
}

/**
 * The console of engines whose guests' screens the product serves itself (`openConsole`): a
 * noVNC page at `<path><ticket>` and its websocket at `<path><ticket>/websockify`, which carries
 * the guest's RFB stream. Loading the page leaves the ticket good; the websocket uses it up. The
 * stream never becomes a TCP port of its own.
 */
export function registerConsoleGateway(
  app: FastifyInstance,
  options: {
    path: string;
    basePath: string;
    publicOrigin: string;
    drivers: DriverMap;
    consoles: OpenConsoles;
    admit: AdmitConsole;
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
  // Looked up at each use: tests add engines to the map.
  const served = (kind: string) => options.drivers.get(kind)?.openConsole !== undefined;

  app.get<{ Params: { ticket: string } }>(
    `${options.path}:ticket`,
    { config: { auth: 'public' } },
    async (request, reply) => {
      if (!page || !(await options.admit(request, served, false))) {
        return refuseConsole(reply, 404);
      }
      return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
    },
  );

  registerConsoleSocket(app, {
    path: options.path,
    publicOrigin: options.publicOrigin,
    consoles: options.consoles,
    admit: (request) => options.admit(request, served, true),
    open: (viewer) => options.drivers.get(viewer.kind)!.openConsole!(viewer.providerRef),
    isInput: isRfbInput,
    refuse: refuseConsole,
  });
}
