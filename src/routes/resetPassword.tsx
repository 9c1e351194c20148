import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordScreen } from './-components/reset-password-screen';
import { tokenSearch } from './-components/token-search';

export const Route = createFileRoute('/resetPassword')({
  validateSearch: tokenSearch,
  component: ResetPasswordScreen,
});
