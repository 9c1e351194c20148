import { idSchema } from '../../../../api/contract/envelope';

/**
 * The `$networkId` path parameter: a network id, or 0 for anything else (`abc`, `-1`), which the
 * screens show as an unknown network rather than as a route error.
 */
export const networkIdParams = {
  parse: ({ networkId }: { networkId: string }) => {
    const parsed = idSchema.safeParse(networkId);
    return { networkId: parsed.success && /^\d+$/.test(networkId) ? parsed.data : 0 };
  },
  stringify: ({ networkId }: { networkId: number }) => ({ networkId: String(networkId) }),
};
