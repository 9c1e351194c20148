import type { FieldError } from '../src/api/contract/envelope';

/** An error the API answers with its own status and message (never a 500). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
    /** Several failures at once (a 400 on a list of items); `field` is ignored when set. */
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, field?: string) => new HttpError(400, message, field);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do that') =>
  new HttpError(403, message);
export const invalidItems = (errors: FieldError[]) => {
  const first = errors[0];
  const lead = first
    ? `items.${first.index ?? 0}.${first.field}: ${first.message}`
    : 'Invalid items';
  return new HttpError(400, lead, undefined, errors);
};
/** Several fields of one body at once, led like a schema's 400 (`field: message`). */
export const invalidFields = (errors: FieldError[]) => {
  const first = errors[0];
  return new HttpError(
    400,
    first ? `${first.field}: ${first.message}` : 'Invalid body',
    undefined,
    errors,
  );
};
/** Also for ids of another company: they must look exactly like ids that do not exist. */
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message: string) => new HttpError(429, message);
