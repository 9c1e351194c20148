import { idSchema } from '../../api/contract/envelope';

/**
 * A path parameter holding an id (`$networkId`): the id, or 0 for anything else (`abc`, `-1`),
 * which the screens show as not found rather than as a route error.
 */
export function idParams<const K extends string>(key: K) {
  return {
    parse: (params: Record<K, string>) => {
      const raw = params[key];
      const parsed = idSchema.safeParse(raw);
      return { [key]: parsed.success && /^\d+$/.test(raw) ? parsed.data : 0 } as Record<K, number>;
    },
    stringify: (params: Record<K, number>) => ({ [key]: String(params[key]) }) as Record<K, string>,
  };
}
