import { z } from 'zod';
import { envelope } from './envelope';

export const healthResponse = envelope(
  z.object({ status: z.enum(['ok', 'unavailable']), latencyMs: z.number().optional() }),
);
