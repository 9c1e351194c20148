import { describe, expect, it } from 'vitest';
import { openEventStream, serverSentEvents } from '../../cli/src/event-stream';
import type { Api } from '../../cli/src/http';

const body = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

describe('the CLI reading a Server-Sent Events stream', () => {
  it('gives each message once, across chunks, without comments', async () => {
    const messages = [];
    for await (const m of serverSentEvents(
      body(
        'retry: 2000\n\n: heartbeat\n\nid: 4\nevent: activity\nda',
        'ta: {"a":1}\n\n',
        'id: 5\r\ndata: x\r\ndata: y\r\n\r\n',
      ),
    )) {
      messages.push(m);
    }
    expect(messages).toEqual([
      { event: 'activity', id: '4', data: '{"a":1}' },
      { event: 'message', id: '5', data: 'x\ny' },
    ]);
  });
});

describe('the CLI following the live events', () => {
  const api = (...chunks: string[]) =>
    ({ open: async () => new Response(body(...chunks)) }) as unknown as Api;

  it('hears that the server is shutting down, with the event to resume after, and stops there', async () => {
    const items = [];
    for await (const item of await openEventStream(
      api(
        'retry: 2000\n\nid: 4\nevent: activity\ndata: {"nope":1}\n\n',
        'retry: 700\nid: 9\nevent: reconnect\ndata: {}\n\n',
        'id: 12\nevent: reload\ndata: {}\n\n',
      ),
    )) {
      items.push(item);
    }
    expect(items).toEqual([{ kind: 'reconnect', id: '9' }]);
  });
});
