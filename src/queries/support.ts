import { mutationOptions } from '@tanstack/react-query';
import { sendSupportMessage } from '../api/support';

export const supportMutations = {
  /** Nothing on screen is cached from it: no query goes stale. */
  send: () => mutationOptions({ mutationFn: sendSupportMessage }),
};
