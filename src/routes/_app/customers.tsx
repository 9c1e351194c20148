import { createFileRoute, notFound } from '@tanstack/react-router';
import { authQueries } from '../../queries/auth';
import { NotFoundPage } from '../-components/not-found-screen';

/**
 * The reseller's customers: `/customers`, `/customers/new`, `/customers/{id}`. Only a reseller's
 * staff have customers; to anyone else these addresses lead nowhere, as the API's 404 says too.
 */
export const Route = createFileRoute('/_app/customers')({
  beforeLoad: async ({ context }) => {
    // The layout's check has put the signed-in user in the cache: no request.
    const { user } = await context.queryClient.ensureQueryData(authQueries.check());
    if (!user.isReseller) throw notFound();
  },
  // Drawn here, inside the signed-in layout (the layout's own would replace the layout).
  notFoundComponent: NotFoundPage,
});
