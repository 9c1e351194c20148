import { createFileRoute } from '@tanstack/react-router';
import { LogoutScreen } from './-components/logout-screen';

export const Route = createFileRoute('/logout')({
  component: LogoutScreen,
});
