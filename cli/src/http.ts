import { errorBody } from '../../src/api/contract/envelope';
import type { z } from '../../src/api/contract/zod';
import { reviveDates } from '../../src/api/revive-dates';
import type { Credentials } from './config';
import { CliError, exitCodes, type ExitCode } from './errors';

type Query = Record<string, string | number | boolean | undefined>;

const codeOf = (status: number): ExitCode => {
  if (status === 400) return exitCodes.usage;
  if (status === 401) return exitCodes.unauthenticated;
  if (status === 403) return exitCodes.forbidden;
  if (status === 404) return exitCodes.notFound;
  if (status === 409) return exitCodes.conflict;
  return exitCodes.failed;
};

const hints: Partial<Record<number, string>> = {
  401: 'the token is unknown, revoked or expired: run "launchpad login" with a valid token',
};

/** The API's address from the server's: `https://host/base/` -> `https://host/base/api/v1/`. */
export function apiBase(url: string): URL {
  const base = new URL(url.endsWith('/') ? url : `${url}/`);
  return new URL('api/v1/', base);
}

/** The API as this client uses it: every answer parsed with the contract's schema. */
export class Api {
  readonly base: URL;

  constructor(private readonly credentials: Credentials) {
    try {
      this.base = apiBase(credentials.url);
    } catch {
      throw new CliError(`Not a URL: ${credentials.url}`, exitCodes.usage);
    }
  }

  url(path: string, query: Query = {}): URL {
    const url = new URL(path, this.base);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
    }
    return url;
  }

  /** The raw response, for the event stream; non-200 answers throw as `call` does. */
  async open(path: string, init: RequestInit & { query?: Query } = {}): Promise<Response> {
    const { query, ...rest } = init;
    let response: Response;
    try {
      response = await fetch(this.url(path, query), {
        ...rest,
        headers: { authorization: `Bearer ${this.credentials.token}`, ...rest.headers },
      });
    } catch (cause) {
      const why = cause instanceof Error && cause.cause instanceof Error ? cause.cause.message : '';
      throw new CliError(
        `Could not reach ${this.base.origin}${why ? ` (${why})` : ''}`,
        exitCodes.unreachable,
      );
    }
    if (response.status !== 200) throw await failure(response);
    return response;
  }

  async call<S extends z.ZodMiniType>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    schema: S,
    options: { query?: Query; body?: unknown } = {},
  ): Promise<z.output<S>> {
    const response = await this.open(path, {
      method,
      query: options.query,
      headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    let body: unknown;
    try {
      body = JSON.parse(await response.text());
    } catch {
      body = undefined;
    }
    const parsed = schema.safeParse(reviveDates(body));
    if (!parsed.success) {
      throw new CliError(
        `The server answered ${method} ${path} in a shape this client does not know: is it the same version?`,
        exitCodes.failed,
      );
    }
    return parsed.data;
  }
}

async function failure(response: Response): Promise<CliError> {
  const text = await response.text();
  let body: z.output<typeof errorBody> | undefined;
  try {
    const parsed = errorBody.safeParse(JSON.parse(text));
    body = parsed.success ? parsed.data : undefined;
  } catch {
    body = undefined;
  }
  const status = response.status;
  // Not the API's envelope: another server, or a proxy in front of this one.
  const message =
    body?.message ||
    `${response.statusText || 'No message'} from ${new URL(response.url).origin}: is it a Launchpad server?`;
  const fields = (body?.errors ?? []).map((e) => `  ${e.field}: ${e.message}`);
  const hint = hints[status];
  return new CliError(
    [`${message} (${status})`, ...fields, ...(hint ? [`(${hint})`] : [])].join('\n'),
    codeOf(status),
  );
}
