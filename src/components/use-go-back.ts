import { useNavigate, useRouter } from '@tanstack/react-router';

/**
 * Back to where the user came from. A deep link (a new tab, a bookmark) has no history to go back
 * to: it goes to the given list instead of nowhere.
 */
export function useGoBack(fallback: '/users' | '/virtualMachines' | '/customers') {
  const router = useRouter();
  const navigate = useNavigate();
  return () => {
    if (router.history.canGoBack()) router.history.back();
    else void navigate({ to: fallback });
  };
}

export const useGoBackToUsers = () => useGoBack('/users');
