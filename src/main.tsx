import { nextTask } from './boot/next-task';
import { startSessionCheck } from './boot/session-check';

/**
 * The console's start, step by step (src/boot/), each step a task of its own so that a phone's
 * main thread is never held long: the session check goes out; then the router's and the screens'
 * code (`start-console.tsx`, in a file the page downloads beside this one) is evaluated; then the
 * router is built and the first screen drawn. Not a top-level await: the start's file imports
 * this one, which must have finished evaluating first.
 */
async function start() {
  const queryClient = startSessionCheck();
  await nextTask();
  const { startConsole } = await import('./boot/start-console');
  await nextTask();
  await startConsole(queryClient, document.getElementById('root')!);
}

void start();
