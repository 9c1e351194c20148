import fc from 'fast-check';

/**
 * Values a JSON Schema (the part of it the API document uses) allows, as fast-check arbitraries:
 * what a client generated from the document could send.
 */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
}

const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);

function integers(schema: JsonSchema): fc.Arbitrary<number> {
  const lo = Math.max(
    schema.minimum ?? INT32_MIN,
    schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : INT32_MIN,
  );
  const hi = Math.min(
    schema.maximum ?? INT32_MAX,
    schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : INT32_MAX,
  );
  const bounds = { min: Math.max(lo, INT32_MIN), max: Math.min(hi, INT32_MAX) };
  // Small values find real rows (ids, pages); the bounds find the edges.
  return fc.oneof(
    fc.integer({ min: bounds.min, max: Math.min(bounds.max, bounds.min + 50) }),
    fc.integer(bounds),
    fc.constantFrom(lo, hi),
  );
}

function strings(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, minLength + 60);
  const fits = (s: string) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity);
  if (schema.format === 'date-time' || schema.format === 'date') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => (schema.format === 'date' ? d.toISOString().slice(0, 10) : d.toISOString()));
  }
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

function objects(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const known = fc.record(
    Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, arbitraryOf(v)])),
    { requiredKeys: required.filter((k) => k in properties) },
  );
  if (typeof schema.additionalProperties !== 'object') return known;
  // A record: keys and values both from the schema.
  return fc
    .dictionary(
      schema.propertyNames
        ? (arbitraryOf(schema.propertyNames) as fc.Arbitrary<string>)
        : fc.string(),
      arbitraryOf(schema.additionalProperties),
      { maxKeys: 4 },
    )
    .chain((extra) => known.map((k) => ({ ...extra, ...k })));
}

export function arbitraryOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map(arbitraryOf));
  if (schema.allOf?.length === 1) return arbitraryOf(schema.allOf[0]!);
  if (Array.isArray(schema.type)) {
    return fc.oneof(...schema.type.map((type) => arbitraryOf({ ...schema, type })));
  }
  switch (schema.type) {
    case 'string':
      return strings(schema);
    case 'integer':
      return integers(schema);
    case 'number':
      return fc.oneof(
        integers(schema),
        fc.double({
          min: schema.minimum ?? -1e9,
          max: schema.maximum ?? 1e9,
          noNaN: true,
          noDefaultInfinity: true,
        }),
      );
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, (schema.minItems ?? 0) + 3),
      });
    case 'object':
      return objects(schema);
    default:
      // No type: anything JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}
