import { z } from '../../api/contract/zod';

/** `?token=…&id=…` of the links in reset and activation e-mails; a bad value counts as missing. */
export const tokenSearch = z.object({
  token: z.catch(z.optional(z.string().check(z.minLength(1))), undefined),
  id: z.catch(z.optional(z.int().check(z.positive())), undefined),
});
