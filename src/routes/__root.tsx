import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { ErrorScreen } from '../components/error-screen';
import type { RouterContext } from '../router';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  errorComponent: ErrorScreen,
});
