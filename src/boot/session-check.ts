import { apiBase } from '../api/base-path';
import { installErrorReporter } from '../api/error-reporter';
import { authQueries } from '../queries/auth';
import { createQueryClient } from '../queries/query-client';

/**
 * The console's first step: the error reporter, then the session check, which every screen
 * starts with. The check travels while the router and the screens' modules are evaluated.
 */
export function startSessionCheck() {
  installErrorReporter(`${apiBase}logging`);
  const queryClient = createQueryClient();
  void queryClient.prefetchQuery(authQueries.check());
  return queryClient;
}
