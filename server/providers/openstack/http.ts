import { z } from '../../../src/api/contract/zod';
import { EngineRejection, ProviderRejection, ProviderUnavailable } from '../driver';

/** An answer of an OpenStack API that is not a success, kept for the callers that expect it. */
export class OpenStackHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'OpenStackHttpError';
  }
}

/** Whether a call failed with this HTTP status (404: gone; 409: busy or already so). */
export const isHttpStatus = (error: unknown, status: number) =>
  error instanceof OpenStackHttpError && error.status === status;

/** A call on something that may be gone already: a 404 is as good as done. */
export async function ignoreMissing(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!isHttpStatus(error, 404)) throw error;
  }
}

/** A read of something that may be gone: null for a 404. */
export async function unlessMissing<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (isHttpStatus(error, 404)) return null;
    throw error;
  }
}

/** What each service's error body holds under its one key (`badRequest`, `NeutronError`…). */
const errorDetail = z.object({ message: z.string().check(z.minLength(1)) });

/**
 * The engine's own words from an error body: Nova's `{"badRequest": {"message"}}`, Neutron's
 * `{"NeutronError": {"message"}}`, Keystone's `{"error": {"message"}}`, Glance's plain text.
 */
export function engineMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === 'object') {
      for (const value of Object.values(parsed)) {
        const error = errorDetail.safeParse(value);
        if (error.success) return error.data.message;
      }
    }
  } catch {
    // Not JSON: the text itself, below.
  }
  const text = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? text.slice(0, 300) : `HTTP ${status}`;
}

/** Nova's and Neutron's words for a project out of quota (Nova answers 403, Neutron 409). */
const OVER_QUOTA = /quota exceeded|over ?quota/i;

/**
 * The product's reading of a failed call: a refusal (4xx: asking again will not help) carries the
 * engine's message; anything else (5xx, no answer, a timeout) says the engine is unavailable.
 * A 400 or 409 is Nova's or Neutron's refusal of what the user asked (a flavor, an address), so
 * users see its words; a quota reached (the project's use, shared by every tenant) or a refusal
 * of the account itself (401, 403) stays in the log. 404 and 409 stay `OpenStackHttpError` for
 * the callers that treat them (gone; busy).
 */
export function toProviderError(error: unknown, what: string): Error {
  if (error instanceof OpenStackHttpError) {
    if (error.status >= 500) return new ProviderUnavailable(`${what}: ${error.message}`);
    if (OVER_QUOTA.test(error.message)) return new EngineRejection(error.message, 'capacity');
    if (error.status === 400 || error.status === 409) return new ProviderRejection(error.message);
    return new EngineRejection(error.message);
  }
  if (error instanceof ProviderRejection || error instanceof ProviderUnavailable) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ProviderUnavailable(`${what}: ${reason}`);
}

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** How long the call may take before the engine counts as unreachable. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One call; a non-2xx answer throws `OpenStackHttpError`, no answer throws `ProviderUnavailable`. */
export async function httpCall(
  url: string,
  request: HttpRequest = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(request.timeoutMs ?? 30_000),
    });
  } catch (error) {
    const reason =
      error instanceof Error
        ? ((error.cause as Error | undefined)?.message ?? error.message)
        : String(error);
    throw new ProviderUnavailable(`${new URL(url).host} did not answer: ${reason}`);
  }
  const text = await response.text();
  if (!response.ok)
    throw new OpenStackHttpError(response.status, engineMessage(response.status, text));
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, headers: response.headers, body };
}
