import { apiBase } from './api/base-path';
import { installErrorReporter } from './api/error-reporter';
import { nextTask } from './components/next-task';
import { authQueries } from './queries/auth';
import { createQueryClient } from './queries/query-client';

// The console's first module (main.tsx imports it before everything else): the error reporter,
// then the session check, which every screen starts with. The check travels while the router and
// the screens' modules are evaluated, a turn of the event loop later: shorter tasks on a slow
// phone's main thread instead of one long one.
installErrorReporter(`${apiBase}logging`);

export const queryClient = createQueryClient();
void queryClient.prefetchQuery(authQueries.check());

await nextTask();
