import fc from "fast-check";

/** The subset of JSON Schema our OpenAPI document uses for request bodies. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** Realistic values for fields whose meaning a random string would never hit (ids that exist, real questions). */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

/** Values that a schema allows: mostly short, sometimes at the limits. */
export function conformingValue(schema: JsonSchema, hints: Hints = {}, name = ""): fc.Arbitrary<unknown> {
  const generic = genericValue(schema, hints);
  const hint = hints[name];
  return hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: generic }) : generic;
}

function genericValue(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives)
    return fc.oneof(...alternatives.map((alternative) => conformingValue(alternative, hints)));
  switch (schema.type) {
    case "string": {
      const minLength = schema.minLength ?? 0;
      const maxLength = schema.maxLength ?? 200;
      return fc.oneof(
        {
          weight: 4,
          arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, 40)) }),
        },
        { weight: 1, arbitrary: fc.constant("x".repeat(maxLength)) },
        { weight: 1, arbitrary: fc.constant("é".repeat(minLength)) },
      );
    }
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(conformingValue(schema.items ?? {}, hints), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, Math.max(schema.minItems ?? 0, 4)),
      });
    case "object": {
      const properties = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(properties))
        record[key] = conformingValue(property, hints, key);
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return fc.jsonValue();
  }
}

/** What a careless or hostile caller puts in a field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything(),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\ud800",
    "\udfff\ud800",
    "\u202eevil",
    "\ufeff",
    "e\u0301",
    "🧪👩🏽‍🔬",
    "<script>alert(1)</script>",
    "'; drop table accounts; --",
    "../../etc/passwd",
    "%00%ff",
    "${jndi:ldap://x}",
  ),
  fc.integer({ min: 4_000, max: 30_000 }).map((length) => "a".repeat(length)),
  fc.integer({ min: 200, max: 2_000 }).map((length) => "🧪".repeat(length)),
  fc.constantFrom(-1, 0, 0.5, 1e21, -0, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1),
  fc.constantFrom(null, true, false, [], {}),
  fc
    .integer({ min: 50, max: 500 })
    .map((depth) => JSON.parse("[".repeat(depth) + "]".repeat(depth)) as unknown),
);

type Json = unknown;

/** Every path to a value inside a JSON value, the root included. */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const paths = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...pathsOf(item, [...prefix, index])));
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

function replaceAt(value: Json, path: (string | number)[], replacement: Json): Json {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value))
    return value.map((item, index) => (index === head ? replaceAt(item, rest, replacement) : item));
  const record = value as Record<string, Json>;
  return { ...record, [head!]: replaceAt(record[head!], rest, replacement) };
}

function removeAt(value: Json, path: (string | number)[]): Json {
  if (path.length === 0) return undefined;
  if (path.length === 1) {
    const [key] = path;
    if (Array.isArray(value)) return value.filter((_, index) => index !== key);
    const { [key!]: _removed, ...rest } = value as Record<string, Json>;
    return rest;
  }
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? removeAt(item, rest) : item));
  const record = value as Record<string, Json>;
  return { ...record, [head!]: removeAt(record[head!], rest) };
}

/** A conforming body with one thing wrong: a field replaced, removed or added anywhere in it. */
export function mutatedValue(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return valid.chain((value) => {
    const paths = pathsOf(value);
    const path = fc.constantFrom(...paths);
    const objectPaths = paths.filter((candidate) => {
      let node: Json = value;
      for (const part of candidate) node = (node as Record<string | number, Json>)[part];
      return node !== null && typeof node === "object" && !Array.isArray(node);
    });
    return fc.oneof(
      fc.tuple(path, hostileValue).map(([at, replacement]) => replaceAt(value, at, replacement)),
      ...(paths.length > 1
        ? [fc.constantFrom(...paths.slice(1)).map((at) => removeAt(value, at))]
        : [fc.constant(undefined)]),
      ...(objectPaths.length > 0
        ? [
            fc
              .tuple(
                fc.constantFrom(...objectPaths),
                fc.string({ minLength: 1, maxLength: 20 }),
                hostileValue,
              )
              .map(([at, key, extra]) => {
                let node: Json = value;
                for (const part of at) node = (node as Record<string | number, Json>)[part];
                return replaceAt(value, at, { ...(node as Record<string, Json>), [key]: extra });
              }),
          ]
        : []),
    );
  });
}
