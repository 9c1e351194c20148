import type { Duplex } from 'node:stream';
import { createWebSocketStream, WebSocket } from 'ws';
import { ProviderUnavailable } from '../driver';

/**
 * The RFB stream behind a console address of Nova's noVNC proxy
 * (`…/vnc_lite.html?path=%3Ftoken%3D<token>`): its websocket, opened with the page's own origin
 * (the proxy checks it), as a byte stream.
 */
export async function openNoVncStream(consoleUrl: string, timeoutMs: number): Promise<Duplex> {
  const page = new URL(consoleUrl);
  const path = page.searchParams.get('path') ?? `?token=${page.searchParams.get('token') ?? ''}`;
  const socketUrl = new URL(`/${path.replace(/^\//, '')}`, page);
  socketUrl.protocol = page.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(socketUrl, ['binary'], {
    origin: page.origin,
    handshakeTimeout: timeoutMs,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', (error) =>
      reject(new ProviderUnavailable(`Could not open the console: ${error.message}`)),
    );
  });
  return createWebSocketStream(socket);
}
