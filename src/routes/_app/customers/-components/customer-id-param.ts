import { idSchema } from '../../../../api/contract/envelope';

/**
 * The `$customerId` path parameter: a company id, or 0 for anything else (`abc`, `-1`), which the
 * screen shows as not found rather than as a route error.
 */
export const customerIdParams = {
  parse: ({ customerId }: { customerId: string }) => {
    const parsed = idSchema.safeParse(customerId);
    return { customerId: parsed.success && /^\d+$/.test(customerId) ? parsed.data : 0 };
  },
  stringify: ({ customerId }: { customerId: number }) => ({ customerId: String(customerId) }),
};
