import { z } from '../../../src/api/contract/zod';
import { ProviderUnavailable } from '../driver';
import type { HttpRequest } from './http';

/** The services of a cloud's catalogue the driver calls. */
export type ServiceType = 'compute' | 'network' | 'image';

/** What a service's client needs of its cloud's session (a `KeystoneSession`). */
export interface ServiceSession {
  call(service: ServiceType, path: string, request?: HttpRequest): Promise<{ body: unknown }>;
  projectId(): Promise<string>;
}

/**
 * An answer that does not have the form the driver reads: the engine answered nonsense (a proxy's
 * page, another version of the API), which the driver treats as the engine being unavailable.
 */
export function readAnswer<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  what: string,
): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new ProviderUnavailable(
    `${what} is not what the driver reads (${where}${issue?.message ?? 'invalid'})`,
  );
}

/**
 * One service of one cloud, as its typed client calls it (gophercloud's ServiceClient): paths
 * relative to the service's endpoint in the catalogue, each answer read with a schema.
 */
export class ServiceClient {
  constructor(
    private readonly session: ServiceSession,
    private readonly service: ServiceType,
    /** The service's name, for the log: Nova, Neutron, Glance. */
    private readonly name: string,
  ) {}

  /** A call whose answer the driver reads: parsed with `schema`, or ProviderUnavailable. */
  async read<S extends z.ZodMiniType>(
    schema: S,
    path: string,
    request: HttpRequest = {},
  ): Promise<z.output<S>> {
    const answer = await this.session.call(this.service, path, request);
    return readAnswer(
      schema,
      answer.body,
      `${this.name}'s answer to ${request.method ?? 'GET'} ${path}`,
    );
  }

  /** A call whose answer says nothing the driver needs (202, 204, a tag set). */
  async send(path: string, request: HttpRequest = {}): Promise<void> {
    await this.session.call(this.service, path, request);
  }

  projectId(): Promise<string> {
    return this.session.projectId();
  }
}

/** An id, as every OpenStack service answers one. */
export const id = z.string().check(z.minLength(1));
