import { createRootRouteWithContext, lazyRouteComponent, Outlet } from '@tanstack/react-router';
import { ErrorScreen } from '../components/error-screen';
import type { RouterContext } from '../router';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  errorComponent: ErrorScreen,
  // An address no route matches. The build never splits the root route: loaded on demand here,
  // so that the sign-in page does not download it.
  notFoundComponent: lazyRouteComponent(
    () => import('./-components/not-found-screen'),
    'NotFoundScreen',
  ),
});
