import { nextTask } from './next-task';
import { startSessionCheck } from './session-check';

/**
 * The console's first task, and its first module (main.tsx imports it before any other): the
 * session check goes out, then a turn of the event loop passes before the router's and the
 * screens' modules are evaluated. That boundary is this module's top-level await, and it holds
 * because the build keeps the entry's modules in the order they are imported (rolldown puts a
 * dynamically imported module of the same file in line, evaluated at once; see
 * docs/performance.md).
 */
export const queryClient = startSessionCheck();

await nextTask();
