import type { FastifySchemaCompiler, FastifyServerOptions } from "fastify";
import { serializerCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";
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

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: invalidRequestFrom(result.error) };
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
