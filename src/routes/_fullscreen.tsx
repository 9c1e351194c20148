import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet } from '@tanstack/react-router';
import { useBranding } from '../components/branding';
import { authQueries } from '../queries/auth';
import { requireAuth } from './-components/require-auth';

/**
 * Protected screens that fill the window without the app shell (the VM console, opened in a tab
 * of its own). Same authentication check as `_app`.
 */
export const Route = createFileRoute('/_fullscreen')({
  beforeLoad: ({ context }) => requireAuth(context.queryClient),
  component: FullscreenLayout,
});

function FullscreenLayout() {
  const { data } = useSuspenseQuery(authQueries.check());
  // The tab still carries the reseller's title and icon.
  useBranding(data.user);
  return <Outlet />;
}
