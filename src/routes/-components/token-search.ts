import { z } from 'zod';

/** `?token=…&id=…` of the links in reset and activation e-mails; a bad value counts as missing. */
export const tokenSearch = z.object({
  token: z.string().min(1).optional().catch(undefined),
  id: z.number().int().positive().optional().catch(undefined),
});
