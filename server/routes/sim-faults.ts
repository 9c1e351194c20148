import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '../../src/api/contract/zod';
import { emptyEnvelope } from '../../src/api/contract/envelope';
import type { SimAction } from '../providers/sim/faults';
import { SimDriver } from '../providers/sim/driver';
import type { RouteOptions } from './deps';

const simActions = [
  'create',
  'start',
  'stop',
  'reboot',
  'resize',
  'rebuild',
  'delete',
  'snapshot',
  'restore',
  'snapshot-delete',
  'console',
  'network',
  'port',
  'ip',
  'health',
] as const satisfies readonly SimAction[];

const times = z.optional(z.int().check(z.gte(1), z.lte(1000)));
const message = z.string().check(z.trim(), z.minLength(1), z.maxLength(500));
const simFaultBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fail'), action: z.enum(simActions), message, times }),
  z.object({
    kind: z.literal('unavailable'),
    action: z.enum([...simActions, 'any']),
    message: z.optional(message),
    times,
  }),
  z.object({
    kind: z.literal('refuse'),
    action: z.enum(simActions),
    message,
    words: z.optional(z.enum(['engine', 'user'])),
    capacity: z.optional(z.boolean()),
    times,
  }),
  z.object({
    kind: z.literal('slow'),
    action: z.enum([...simActions, 'any']),
    delayMs: z.int().check(z.gte(1), z.lte(120_000)),
    times,
  }),
]);

/**
 * The operator arms the embedded engine's faults in this process, to show (or check by hand) how
 * the console meets a failed task, a refusal, an unreachable engine or a slow one (the messages
 * of `refuse` and `unavailable` stand for the engine's own words, which tenants never see).
 * Operator token only.
 */
export const simFaultRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const sim = deps.drivers.get('sim');
  if (!(sim instanceof SimDriver)) return;
  const options = { config: { auth: 'operator' as const } };
  app.post(
    '/faults',
    { ...options, schema: { body: simFaultBody, response: { 200: emptyEnvelope } } },
    async (request) => {
      sim.faults.inject(request.body);
      return { data: null, message: 'Fault armed' };
    },
  );
  app.delete('/faults', { ...options, schema: { response: { 200: emptyEnvelope } } }, async () => {
    sim.faults.clear();
    return { data: null, message: 'Faults cleared' };
  });
};
