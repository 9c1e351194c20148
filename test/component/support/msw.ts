import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ErrorBody, FieldError } from '../../../src/api/contract/envelope';

export const server = setupServer();

/** The URL msw matches for an API path such as `auth/login`. */
export const api = (path: string) => `*/api/v1/${path}`;

export const ok = <T>(data: T, message = 'OK', init?: ResponseInit) =>
  HttpResponse.json({ data, message }, init);

export const fail = (status: number, message: string, errors?: FieldError[]) =>
  HttpResponse.json<ErrorBody>(errors ? { data: null, message, errors } : { data: null, message }, {
    status,
  });

export { http, HttpResponse };
