import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock';
import { simCatalog } from './catalog';
import { readConsoleTicket } from '../console-ticket';
import type { SimDriver } from './driver';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
  html, body { margin: 0; height: 100%; background: #0b0f14; color: #c9d1d9;
    font: 15px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  main { padding: 18px 22px; white-space: pre-wrap; }
  .cursor { display: inline-block; width: 9px; height: 1.1em; background: #c9d1d9;
    vertical-align: text-bottom; animation: blink 1s steps(1) infinite; }
  @keyframes blink { 50% { opacity: 0; } }
</style></head>
<body><main>${body}</main></body></html>`;
}

/**
 * The sim's console: what a VNC or serial console of a running server shows at its login prompt.
 * The address carries a signed ticket from `consoleUrl`, so it needs no session of its own.
 */
export function registerSimConsole(
  app: FastifyInstance,
  options: { path: string; secret: string; clock: Clock; sim: SimDriver },
) {
  app.get(`${options.path}:ticket`, { config: { auth: 'public' } }, async (request, reply) => {
    const { ticket: value } = request.params as { ticket: string };
    const ticket = readConsoleTicket(options.secret, options.sim.kind, value, options.clock.now());
    const server = ticket ? await options.sim.describe(ticket.ref) : undefined;
    reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
    if (!server || server.powerState !== 'running') {
      return reply
        .code(404)
        .send(
          page(
            'Console unavailable',
            'This console link has expired or the server is not running.',
          ),
        );
    }
    const image =
      simCatalog.images.find((i) => i.regionKey === server.regionKey && i.key === server.imageKey)
        ?.name ?? server.imageKey;
    const host = escapeHtml(server.name);
    const body =
      `${escapeHtml(image)} ${host} tty1\n\n` +
      `Connected to ${escapeHtml(server.ref)} in ${escapeHtml(server.regionKey)}.\n\n` +
      `${host} login: <span class="cursor"></span>`;
    return reply.send(page(`Console - ${server.name}`, body));
  });
}
