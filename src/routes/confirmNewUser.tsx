import { createFileRoute } from '@tanstack/react-router';
import { ConfirmNewUserScreen } from './-components/confirm-new-user-screen';
import { tokenSearch } from './-components/token-search';

export const Route = createFileRoute('/confirmNewUser')({
  validateSearch: tokenSearch,
  component: ConfirmNewUserScreen,
});
