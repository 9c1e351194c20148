import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { ConsoleViewer } from '../domain/consoles/console-admission';
import type { OpenConsoles } from '../domain/consoles/open-consoles';
import { isFromConsole } from '../http-origin';

/** Past this much output waiting for a slow browser, the engine's stream is paused. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

const toBuffer = (data: RawData) =>
  Buffer.isBuffer(data)
    ? data
    : Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.from(data as ArrayBuffer);

type TicketRequest = FastifyRequest<{ Params: { ticket: string } }>;

/**
 * Reads a console link's ticket (`plugins/consoles.ts`): its viewer, or undefined when refused.
 * `accepts` says which engines the page serves; `consume` uses the ticket up (the websocket).
 */
export type AdmitConsole = (
  request: TicketRequest,
  accepts: (kind: string) => boolean,
  consume: boolean,
) => Promise<ConsoleViewer | undefined>;

/**
 * A console's websocket at `<path>:ticket/websockify`, for the gateway's engines and the sim
 * alike. Before the upgrade, a browser page of another origin is refused, and so is a ticket
 * `admit` refuses (which uses it up when it passes); after it, the open console counts against
 * its caps and closes when `consoles` says, the engine's stream with it.
 */
export function registerConsoleSocket(
  app: FastifyInstance,
  options: {
    path: string;
    publicOrigin: string;
    consoles: OpenConsoles;
    admit: (request: TicketRequest) => Promise<ConsoleViewer | undefined>;
    open: (viewer: ConsoleViewer) => Promise<Duplex>;
    /** Whether a message from the browser is the viewer's input (the idle timeout's measure). */
    isInput: (data: Buffer) => boolean;
    refuse: (reply: FastifyReply, code: number) => FastifyReply;
  },
) {
  const admitted = new WeakMap<FastifyRequest, ConsoleViewer>();

  app.get<{ Params: { ticket: string } }>(
    `${options.path}:ticket/websockify`,
    {
      websocket: true,
      config: { auth: 'public' },
      // Refused before the upgrade: a page of another site, or a bad ticket, never gets a socket.
      preValidation: async (request, reply) => {
        if (!isFromConsole(request, options.publicOrigin)) return options.refuse(reply, 403);
        const viewer = await options.admit(request);
        if (!viewer) return options.refuse(reply, 403);
        admitted.set(request, viewer);
      },
    },
    async (socket, request) => {
      const viewer = admitted.get(request)!;
      let engine: Duplex | undefined;
      // Pings the browser has not answered: two sweeps without an answer, and it is gone.
      let unanswered = 0;
      const handle = options.consoles.add(viewer, {
        close(end) {
          engine?.destroy();
          // A paused socket would never read the browser's answer to the close.
          socket.resume();
          socket.close(end.code, end.reason);
        },
        probe() {
          if (socket.readyState !== socket.OPEN) return;
          if (unanswered >= 2) {
            socket.terminate();
            return;
          }
          unanswered += 1;
          socket.ping();
        },
      });
      if (!('input' in handle)) {
        socket.close(handle.code, handle.reason);
        return;
      }
      socket.on('pong', () => {
        unanswered = 0;
      });
      socket.on('close', () => {
        handle.remove();
        engine?.destroy();
      });
      socket.on('error', (error) => request.log.warn({ err: error }, 'console socket failed'));
      // What the browser sends while the engine's stream opens waits for it.
      socket.pause();
      try {
        engine = await options.open(viewer);
      } catch (error) {
        request.log.warn({ err: error, vmId: viewer.vmId }, 'console stream could not be opened');
        handle.remove();
        socket.resume();
        socket.close(1011, 'The console of this server cannot be reached');
        return;
      }
      socket.resume();
      if (socket.readyState !== socket.OPEN) {
        engine.destroy();
        return;
      }
      bridge(socket, engine, (data) => {
        if (options.isInput(data)) handle.input();
      });
      request.log.info({ vmId: viewer.vmId, userId: viewer.userId }, 'console opened');
    },
  );
}

/** Carries the browser's messages to the engine and the engine's bytes back, in binary frames. */
function bridge(socket: WebSocket, engine: Duplex, onMessage: (data: Buffer) => void) {
  socket.on('message', (data) => {
    if (engine.destroyed) return;
    const bytes = toBuffer(data);
    onMessage(bytes);
    if (!engine.write(bytes)) {
      socket.pause();
      engine.once('drain', () => socket.resume());
    }
  });
  engine.on('data', (chunk: Buffer) => {
    socket.send(chunk, { binary: true }, () => {
      if (engine.isPaused() && socket.bufferedAmount < MAX_BUFFERED_BYTES) engine.resume();
    });
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) engine.pause();
  });
  engine.once('end', () => socket.close(1000, 'The console of this server closed'));
  engine.on('error', () => socket.close(1011, 'The console of this server cannot be reached'));
  engine.once('close', () => {
    if (socket.readyState === socket.OPEN) socket.close(1000, 'The console of this server closed');
  });
}
