// The console's start, step by step (src/boot/). First, before any other module is evaluated:
// the session check goes out, and a turn of the event loop passes.
import { queryClient } from './boot/first-task';
import { nextTask } from './boot/next-task';
import { startConsole } from './boot/start-console';

// Then, the screens' modules evaluated, another turn before the router is built.
await nextTask();
// Then the router, and the first screen drawn in slices.
await startConsole(queryClient, document.getElementById('root')!);
