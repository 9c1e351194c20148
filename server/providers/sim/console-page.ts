import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OpenConsoles } from '../../domain/consoles/open-consoles';
import { registerConsoleSocket, type AdmitConsole } from '../../plugins/console-socket';
import type { SimDriver } from './driver';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
  html, body { margin: 0; height: 100%; background: #0b0f14; color: #c9d1d9;
    font: 15px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  header { padding: 6px 22px; background: #161b22; border-bottom: 1px solid #30363d;
    font-family: system-ui, sans-serif; font-size: 14px; }
  main { padding: 18px 22px; white-space: pre-wrap; }
  .cursor { display: inline-block; width: 9px; height: 1.1em; background: #c9d1d9;
    vertical-align: text-bottom; animation: blink 1s steps(1) infinite; }
  @keyframes blink { 50% { opacity: 0; } }
</style></head>
<body>${body}</body></html>`;
}

const unavailable = page(
  'Console unavailable',
  '<main>This console link has expired or the server is not running.</main>',
);

/**
 * The page's script: the server's text console over the websocket beside the page
 * (`<this page's address>/websockify`), and the keys typed sent to it. A file of its own: the
 * content security policy runs no inline script.
 */
const terminalScript = `'use strict';
(() => {
  const text = document.getElementById('text');
  const cursor = document.getElementById('cursor');
  const status = document.getElementById('status');
  const address = new URL(window.location.href);
  address.protocol = address.protocol === 'https:' ? 'wss:' : 'ws:';
  address.pathname = address.pathname.replace(/\\/$/, '') + '/websockify';
  address.search = '';
  address.hash = '';
  const socket = new WebSocket(address.href);
  socket.binaryType = 'arraybuffer';
  const decoder = new TextDecoder();
  socket.addEventListener('open', () => {
    status.textContent = 'Connected';
  });
  socket.addEventListener('message', (event) => {
    let screen = text.textContent;
    for (const char of decoder.decode(event.data, { stream: true })) {
      screen = char === '\\b' ? Array.from(screen).slice(0, -1).join('') : screen + char;
    }
    text.textContent = screen;
  });
  socket.addEventListener('close', (event) => {
    cursor.remove();
    status.textContent = event.reason ? 'Disconnected: ' + event.reason : 'Disconnected';
  });
  window.addEventListener('keydown', (event) => {
    if (socket.readyState !== WebSocket.OPEN || event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    const key =
      event.key === 'Enter' ? '\\r' : event.key === 'Backspace' ? '\\b' : event.key.length === 1 ? event.key : '';
    if (!key) return;
    event.preventDefault();
    socket.send(key);
  });
})();
`;

/**
 * The sim's console: what the text console of a running server shows at its login prompt, on a
 * page at `<path><ticket>` whose websocket carries it, under the same rules as the gateway's
 * (`plugins/console-gateway.ts`): loading the page leaves the ticket good, the websocket uses it
 * up, and the open console closes when its viewer may no longer have it.
 */
export function registerSimConsole(
  app: FastifyInstance,
  options: {
    path: string;
    publicOrigin: string;
    sim: SimDriver;
    consoles: OpenConsoles;
    admit: AdmitConsole;
  },
) {
  const isSim = (kind: string) => kind === options.sim.kind;
  const refuse = (reply: FastifyReply, code: number) =>
    reply
      .code(code)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(unavailable);

  app.get(`${options.path}terminal.js`, { config: { auth: 'public' } }, async (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .type('text/javascript; charset=utf-8')
      .send(terminalScript),
  );

  app.get<{ Params: { ticket: string } }>(
    `${options.path}:ticket`,
    { config: { auth: 'public' } },
    async (request, reply) => {
      if (!(await options.admit(request, isSim, false))) return refuse(reply, 404);
      const body =
        '<header><span id="status" role="status" aria-live="polite">Connecting...</span></header>' +
        '<main aria-label="Server screen"><span id="text"></span><span id="cursor" class="cursor"></span></main>' +
        `<script src="${escapeHtml(options.path)}terminal.js"></script>`;
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(page('Console', body));
    },
  );

  registerConsoleSocket(app, {
    path: options.path,
    publicOrigin: options.publicOrigin,
    consoles: options.consoles,
    admit: (request) => options.admit(request, isSim, true),
    open: (viewer) => options.sim.openTextConsole(viewer.providerRef),
    // Every message of the page is a key typed.
    isInput: () => true,
    refuse,
  });
}
