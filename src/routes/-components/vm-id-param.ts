import { idSchema } from '../../api/contract/envelope';

/**
 * The `$virtualMachineId` path parameter: a VM id, or 0 for anything else (`abc`, `-1`), which the
 * screens treat as no VM at all rather than as a route error.
 */
export const vmIdParams = {
  parse: ({ virtualMachineId }: { virtualMachineId: string }) => {
    const parsed = idSchema.safeParse(virtualMachineId);
    return { virtualMachineId: parsed.success && /^\d+$/.test(virtualMachineId) ? parsed.data : 0 };
  },
  stringify: ({ virtualMachineId }: { virtualMachineId: number }) => ({
    virtualMachineId: String(virtualMachineId),
  }),
};
