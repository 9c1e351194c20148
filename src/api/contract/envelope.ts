import { z } from './zod';

/** Every answer of the API: `{ data, message }`. */
export const envelope = <T extends z.ZodMiniType>(data: T) =>
  z.object({ data, message: z.string() });

export const emptyEnvelope = envelope(z.null());

/** Paged lists answer `{ data: { data: [...], totalPages } }`; totalPages is at least 1. */
export const paged = <T extends z.ZodMiniType>(item: T) =>
  z.object({ data: z.array(item), totalPages: z.int().check(z.gte(1)) });

/** `index` is set when the body is a list of items (the imports): the item the field belongs to. */
export const fieldError = z.object({
  index: z.optional(z.int()),
  field: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldError>;

/** Any non-200 answer. `errors` names the fields of a 400. */
export const errorBody = z.object({
  data: z.null(),
  message: z.string(),
  errors: z.optional(z.array(fieldError)),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** A database id: a positive 32-bit integer, from JSON or a URL. */
export const idSchema = z.coerce.number().check(z.int(), z.positive(), z.lte(2_147_483_647));

/** NUL cannot be stored or searched in PostgreSQL text: refused in names, ignored in searches. */
export const NUL = '\u0000';

/** Query-string paging shared by every list endpoint. */
export const pageQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1),
  rowsPerPage: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 10),
  search: z._default(
    z.string().check(
      z.trim(),
      z.maxLength(200, { abort: true }),
      z.refine((value) => !value.includes(NUL), 'Must not contain a NUL character'),
    ),
    '',
  ),
});
