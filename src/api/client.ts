import ky, { type KyResponse } from 'ky';
import type { z } from './contract/zod';
import { apiBase } from './base-path';
import type { FieldError } from './contract/envelope';
import { inFlight } from './in-flight';
import { reviveDates } from './revive-dates';
import { sessionStore } from './session-store';

/** Any answer other than 200, or no answer at all (status 0). Carries the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ApiError';
  }
}

let unauthorizedHandler: ((message: string) => void) | undefined;

/** The console registers navigation to /login here; the HTTP layer has no router of its own. */
export function onUnauthorized(handler: (message: string) => void) {
  unauthorizedHandler = handler;
}

const http = ky.create({
  baseUrl: apiBase,
  credentials: 'include',
  timeout: 600_000,
  retry: 0,
  throwHttpErrors: false,
  hooks: {
    beforeRequest: [
      ({ request }) => {
        const token = sessionStore.getToken();
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
      },
    ],
    afterResponse: [
      ({ response }) => {
        const header = response.headers.get('Authorization');
        if (header?.startsWith('Bearer ')) sessionStore.setToken(header.slice('Bearer '.length));
      },
    ],
  },
});

export interface RequestOptions {
  json?: unknown;
  searchParams?: Record<string, string | number | boolean | undefined>;
  /** Keep the current screen on a 401 (the sign-in screens themselves). */
  suppressUnauthorized?: boolean;
}

/** The answer's JSON; a body that is not JSON (a file, such as a CSV) as its text. */
const readBody = async (response: KyResponse): Promise<unknown> => {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const messageOf = (body: unknown, fallback: string): string =>
  body &&
  typeof body === 'object' &&
  'message' in body &&
  typeof body.message === 'string' &&
  body.message
    ? body.message
    : fallback;

/**
 * One request: sends the bearer token, unwraps the `{ data, message }` envelope and parses it with
 * the contract. 401 navigates to /login unless suppressed; any other non-200 throws ApiError. A
 * file to save (a CSV) comes through here too, for the token a plain link could not send: its
 * schema is `z.string()`.
 */
export async function request<S extends z.ZodMiniType>(
  method: 'get' | 'post' | 'put' | 'delete',
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  const searchParams = options.searchParams
    ? Object.fromEntries(
        Object.entries(options.searchParams).filter(([, v]) => v !== undefined && v !== ''),
      )
    : undefined;
  inFlight.start();
  try {
    let response: KyResponse;
    try {
      response = await http(path, {
        method,
        json: options.json,
        searchParams: searchParams as Record<string, string | number | boolean> | undefined,
      });
    } catch (cause) {
      throw new ApiError(
        0,
        'Could not reach the server. Check your connection and try again.',
        [],
        {
          cause,
        },
      );
    }
    const body = await readBody(response);
    if (response.status === 200) {
      const parsed = schema.safeParse(reviveDates(body));
      if (!parsed.success)
        throw new ApiError(200, 'The server sent an answer the console does not understand.');
      return parsed.data;
    }
    const message = messageOf(body, response.statusText || `Request failed (${response.status})`);
    if (response.status === 401 && !options.suppressUnauthorized) unauthorizedHandler?.(message);
    const errors =
      body && typeof body === 'object' && 'errors' in body && Array.isArray(body.errors)
        ? (body.errors as FieldError[])
        : [];
    throw new ApiError(response.status, message, errors);
  } finally {
    inFlight.end();
  }
}
