import { describe, expect, it } from 'vitest';
import { serverSentEvents } from '../../cli/src/event-stream';

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
