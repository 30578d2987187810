import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plainTextCheck, zodValidatorCompiler } from "../../src/http/validation.ts";

const validate = (schema: z.ZodType, data: unknown) =>
  (
    zodValidatorCompiler({ schema, method: "GET", url: "/", httpPart: "params" }) as (
      data: unknown,
    ) => unknown
  )(data);

describe("the plain-text fast path of the validator", () => {
  const params = z.object({ subjectId: z.string().max(200), topic: z.string().max(5).optional() });

  it("applies to objects of plain strings with at most a maximum length, and to nothing else", () => {
    expect(plainTextCheck(params)).not.toBeNull();
    expect(plainTextCheck(z.object({ q: z.string().trim().max(200) }))).toBeNull();
    expect(plainTextCheck(z.object({ q: z.string().min(1) }))).toBeNull();
    expect(plainTextCheck(z.object({ limit: z.coerce.number() }))).toBeNull();
    expect(
      plainTextCheck(
        z.object({
          q: z
            .string()
            .optional()
            .transform((value) => value),
        }),
      ),
    ).toBeNull();
    expect(plainTextCheck(z.strictObject({ q: z.string() }))).toBeNull();
    expect(plainTextCheck(z.looseObject({ q: z.string() }))).toBeNull();
    expect(plainTextCheck(z.string())).toBeNull();
  });

  it("gives exactly what zod gives, success or error, for any input", () => {
    const input = fc.oneof(
      fc.dictionary(
        fc.constantFrom("subjectId", "topic", "other"),
        fc.oneof(fc.string({ maxLength: 210 }), fc.integer(), fc.constant(undefined)),
      ),
      fc.constant(null),
      fc.string(),
    );
    fc.assert(
      fc.property(input, (data) => {
        const result = zodValidatorCompiler({ schema: params, method: "GET", url: "/", httpPart: "params" });
        const fast = (result as (data: unknown) => { value?: unknown; error?: Error })(data);
        const slow = params.safeParse(data);
        // The same keys and values; the router's params object may lack a prototype where zod's copy has one.
        if (slow.success) expect({ ...(fast.value as object) }).toStrictEqual(slow.data);
        else expect(fast.error?.message).toBeDefined();
        expect(fast.error === undefined).toBe(slow.success);
      }),
    );
  });

  it("refuses with the contract's error naming the field", () => {
    const result = validate(params, { subjectId: "x".repeat(201) }) as {
      error: { code: string; param?: string };
    };
    expect(result.error.code).toBe("invalid_request");
    expect(result.error.param).toBe("subjectId");
  });
});
