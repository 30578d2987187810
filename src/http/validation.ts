import type { FastifySchemaCompiler, FastifyServerOptions } from "fastify";
import { serializerCompiler } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiError } from "./errors.ts";

/** `messages[3].role`, `genie.teachingStyle`: how a caller names a field. */
export function paramPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue): { param: string; message: string } {
  if (issue.code === "unrecognized_keys") {
    const param = paramPath([...issue.path, issue.keys[0] ?? ""]);
    return { param, message: `Unknown field '${param}'.` };
  }
  const param = paramPath(issue.path);
  return { param, message: param ? `'${param}': ${issue.message}` : issue.message };
}

/** Turns the first zod issue into the contract's 400 `invalid_request` naming the field at fault. */
export function invalidRequestFrom(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  if (!issue) return new ApiError("invalid_request");
  const { param, message } = describeIssue(issue);
  return new ApiError("invalid_request", { message, ...(param ? { param } : {}) });
}

/** A field of plain text: `z.string()`, optional or not, whose only check is a maximum length. */
function plainStringField(field: z.ZodType): { optional: boolean; maximum: number } | null {
  const optional = field instanceof z.ZodOptional;
  const inner: unknown = optional ? field.unwrap() : field;
  if (!(inner instanceof z.ZodString) || inner._zod.def.coerce) return null;
  let maximum = Number.POSITIVE_INFINITY;
  for (const check of inner._zod.def.checks ?? []) {
    const definition = check._zod.def as { check: string; maximum?: number };
    if (definition.check !== "max_length" || definition.maximum === undefined) return null;
    maximum = Math.min(maximum, definition.maximum);
  }
  return { optional, maximum };
}

/**
 * For an object of plain text fields (path parameters, mostly), a check written out once: input that passes it has
 * exactly the keys and values zod would return (the router's params object has no prototype; zod's copy would), so
 * it is used as it is, without zod's parse and the objects that makes on every
 * request. Anything else, and every failure, goes through zod, which words the error. Null when the schema is not
 * of that shape.
 */
export function plainTextCheck(schema: z.ZodType): ((data: unknown) => boolean) | null {
  // Only the default object, which drops unknown keys: strict and loose objects decide otherwise.
  if (!(schema instanceof z.ZodObject) || schema._zod.def.catchall !== undefined) return null;
  const fields: { name: string; optional: boolean; maximum: number }[] = [];
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const plain = plainStringField(field);
    if (!plain) return null;
    fields.push({ name, ...plain });
  }
  return (data) => {
    if (typeof data !== "object" || data === null) return false;
    const record = data as Record<string, unknown>;
    let present = 0;
    for (const field of fields) {
      const value = record[field.name];
      if (value === undefined) {
        if (!field.optional) return false;
        continue;
      }
      if (typeof value !== "string" || value.length > field.maximum) return false;
      present += 1;
    }
    // A key the schema does not name would be dropped by zod: leave that to zod.
    let keys = 0;
    for (const key in record) if (Object.hasOwn(record, key)) keys += 1;
    return keys === present;
  };
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema }) => {
  const passes = plainTextCheck(schema);
  return (data) => {
    if (passes?.(data)) return { value: data };
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: invalidRequestFrom(result.error) };
  };
};

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]
>;

/**
 * Every schema in the app is zod, so the app's compilers are zod's from the start. Given as Fastify's compiler
 * factories (rather than set on the instance afterwards), they keep Fastify from loading its defaults, Ajv and
 * fast-json-stringify, which took a visible share of start-up. Fastify types these factories for Ajv's compilers;
 * the compilers it receives are used exactly as those set with setValidatorCompiler and setSerializerCompiler.
 */
export const zodCompilersFactory: CompilersFactory = {
  buildValidator: (() => zodValidatorCompiler) as unknown as CompilersFactory["buildValidator"],
  buildSerializer: (() => serializerCompiler) as unknown as CompilersFactory["buildSerializer"],
};
