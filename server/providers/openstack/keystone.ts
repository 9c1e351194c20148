import { z } from '../../../src/api/contract/zod';
import { EngineRejection, ProviderUnavailable } from '../driver';
import type { OpenStackProvider } from './config';
import { httpCall, OpenStackHttpError, type HttpRequest } from './http';
import { id, readAnswer, type ServiceType } from './service-client';

interface Token {
  id: string;
  expiresAt: number;
  /** The project the token is scoped to: the account's own resources are that project's. */
  projectId: string;
  endpoints: Record<ServiceType, string>;
}

/** Keystone's answer to a sign-in, as far as the driver reads it (the token is in a header). */
const tokenAnswer = z.object({
  token: z.object({
    expires_at: z.string(),
    /** Absent for a token without a project (an account given none). */
    project: z.optional(z.object({ id })),
    catalog: z.optional(
      z.array(
        z.object({
          type: z.string(),
          endpoints: z.array(
            z.object({
              interface: z.string(),
              region: z.nullish(z.string()),
              region_id: z.nullish(z.string()),
              url: z.string(),
            }),
          ),
        }),
      ),
    ),
  }),
});

/** A token is renewed this long before it expires, so that no call goes out with a dying one. */
const RENEW_BEFORE_MS = 5 * 60_000;

/** Nova's microversion: server tags in the create call, remote consoles, failed actions' details. */
const COMPUTE_VERSION = 'compute 2.84';

function identity(auth: OpenStackProvider['auth']) {
  if ('applicationCredentialId' in auth) {
    return {
      identity: {
        methods: ['application_credential'],
        application_credential: {
          id: auth.applicationCredentialId,
          secret: auth.applicationCredentialSecret,
        },
      },
    };
  }
  return {
    identity: {
      methods: ['password'],
      password: {
        user: {
          name: auth.username,
          domain: { name: auth.userDomainName },
          password: auth.password,
        },
      },
    },
    scope: { project: { name: auth.projectName, domain: { name: auth.projectDomainName } } },
  };
}

/**
 * One cloud account's Keystone session: a token and the service endpoints of its catalogue, kept
 * until shortly before the token expires; a 401 from a service drops it and the call is tried once
 * more with a new one. Concurrent callers share one sign-in.
 */
export class KeystoneSession {
  private token: Token | undefined;
  private signingIn: Promise<Token> | undefined;

  constructor(
    private readonly provider: OpenStackProvider,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Calls a service of the cloud; `path` is relative to its endpoint (`/servers/…`). The answer is
   * the service's as it came: its typed client reads it (`compute.ts`, `network.ts`, `image.ts`).
   */
  async call(service: ServiceType, path: string, request: HttpRequest = {}) {
    for (let attempt = 0; ; attempt += 1) {
      const token = await this.current();
      const headers: Record<string, string> = {
        'x-auth-token': token.id,
        ...(service === 'compute' && { 'openstack-api-version': COMPUTE_VERSION }),
        ...request.headers,
      };
      try {
        return await httpCall(`${token.endpoints[service]}${path}`, {
          ...request,
          headers,
          timeoutMs: request.timeoutMs ?? this.timeoutMs,
        });
      } catch (error) {
        if (error instanceof OpenStackHttpError && error.status === 401 && attempt === 0) {
          if (this.token === token) this.token = undefined;
          continue;
        }
        throw error;
      }
    }
  }

  async projectId(): Promise<string> {
    return (await this.current()).projectId;
  }

  /** Signs in afresh (health checks): the answer's latency is Keystone's. */
  async signIn(): Promise<Token> {
    this.signingIn ??= this.issue().finally(() => {
      this.signingIn = undefined;
    });
    this.token = await this.signingIn;
    return this.token;
  }

  private async current(): Promise<Token> {
    if (this.token && this.token.expiresAt - RENEW_BEFORE_MS > this.now()) return this.token;
    return this.signIn();
  }

  private async issue(): Promise<Token> {
    let answer;
    try {
      answer = await httpCall(`${this.provider.authUrl.replace(/\/$/, '')}/auth/tokens`, {
        method: 'POST',
        body: { auth: identity(this.provider.auth) },
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      if (error instanceof OpenStackHttpError && error.status < 500) {
        throw new EngineRejection(`Keystone refused the credentials: ${error.message}`);
      }
      throw error instanceof OpenStackHttpError
        ? new ProviderUnavailable(`Keystone: ${error.message}`)
        : error;
    }
    const tokenId = answer.headers.get('x-subject-token');
    if (!tokenId) throw new ProviderUnavailable('Keystone answered no token');
    const { token } = readAnswer(tokenAnswer, answer.body, "Keystone's answer to a sign-in");
    if (!token.project) {
      throw new EngineRejection('Keystone gave a token without a project: give the account one');
    }
    const endpoints = {} as Record<ServiceType, string>;
    for (const service of ['compute', 'network', 'image'] as const) {
      const entry = token.catalog?.find((e) => e.type === service);
      const endpoint = entry?.endpoints.find(
        (e) =>
          e.interface === this.provider.interface &&
          (e.region_id ?? e.region) === this.provider.cloudRegion,
      );
      if (!endpoint) {
        throw new ProviderUnavailable(
          `The cloud's catalogue has no ${this.provider.interface} ${service} endpoint in ${this.provider.cloudRegion}`,
        );
      }
      endpoints[service] = endpoint.url.replace(/\/$/, '');
    }
    return {
      id: tokenId,
      expiresAt: Date.parse(token.expires_at),
      projectId: token.project.id,
      endpoints,
    };
  }
}
