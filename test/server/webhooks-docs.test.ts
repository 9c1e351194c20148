import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from './support/harness';
import {
  startReceiver,
  startWebhookWorld,
  type Received,
  type Receiver,
  type WebhookWorld,
} from './support/webhook-world';

/**
 * The verification snippets of docs/webhooks.md, run as they are written by `node` and `python3`
 * against deliveries the server really sent, so that the documentation cannot drift from the
 * signature.
 */

const docs = readFileSync(path.resolve(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
function fenced(language: string): string {
  const blocks = [...docs.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))];
  expect(blocks, `one ${language} block in docs/webhooks.md`).toHaveLength(1);
  return blocks[0]![1]!;
}

/** Reads `{ secret, headers, body }` on stdin and prints what the snippet says of it. */
const runners = {
  node: (snippet: string) => ({
    command: process.execPath,
    args: [
      '--input-type=module',
      '-e',
      `${snippet}
import { readFileSync as readInput } from 'node:fs';
const input = JSON.parse(readInput(0, 'utf8'));
const body = Buffer.from(input.body, 'utf8');
console.log(verifyLaunchpadWebhook(input.secret, input.headers, body) ? 'valid' : 'invalid');`,
    ],
  }),
  python: (snippet: string) => ({
    command: 'python3',
    args: [
      '-c',
      `${snippet}
import json, sys
data = json.load(sys.stdin)
ok = verify_launchpad_webhook(data["secret"], data["headers"], data["body"].encode("utf-8"))
print("valid" if ok else "invalid")`,
    ],
  }),
};

const run = promisify(execFile);
async function verdict(language: 'node' | 'python', secret: string, delivery: Received) {
  const snippet = fenced(language === 'node' ? 'js' : 'python');
  const { command, args } = runners[language](snippet);
  const child = run(command, args, { timeout: 20_000 });
  child.child.stdin!.end(
    JSON.stringify({ secret, headers: delivery.headers, body: delivery.body }),
  );
  const { stdout } = await child;
  return stdout.trim();
}

const MINUTE = 60_000;
let w: WebhookWorld;
let receiver: Receiver;
let secret: string;
let stale: Received;
let fresh: Received;

beforeAll(async () => {
  // The server's clock starts ten minutes ago: the first delivery is signed too long ago for the
  // snippets (which read the real time), the second, ten minutes later, now.
  const clock = testClock(new Date(Date.now() - 10 * MINUTE));
  w = await startWebhookWorld({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { clock });
  receiver = await startReceiver();
  ({ secret } = await w.createWebhook(receiver.url));
  await w.teamEvent('Docs stale');
  await w.dispatcher.drain();
  clock.advance(10 * MINUTE);
  await w.teamEvent('Docs fresh');
  await w.dispatcher.drain();
  [stale, fresh] = receiver.received as [Received, Received];
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await w?.close();
});

describe.each(['node', 'python'] as const)('the %s snippet of docs/webhooks.md', (language) => {
  it('accepts a delivery signed now', async () => {
    expect(JSON.parse(fresh.body).subject.name).toBe('Docs fresh');
    expect(await verdict(language, secret, fresh)).toBe('valid');
  });

  it('refuses a changed body, another secret and a changed signature', async () => {
    const changed = { ...fresh, body: fresh.body.replace('Docs fresh', 'Docs fresh!') };
    expect(await verdict(language, secret, changed)).toBe('invalid');
    expect(await verdict(language, `${secret}x`, fresh)).toBe('invalid');
    const signature = fresh.headers['launchpad-signature'] as string;
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    const resigned = { ...fresh, headers: { ...fresh.headers, 'launchpad-signature': flipped } };
    expect(await verdict(language, secret, resigned)).toBe('invalid');
  });

  it('refuses a delivery signed more than five minutes ago, however well signed', async () => {
    expect(JSON.parse(stale.body).subject.name).toBe('Docs stale');
    expect(await verdict(language, secret, stale)).toBe('invalid');
  });
});
