import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { errorCatalogue } from "./errors.ts";

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** The zod-to-JSON-Schema transform, plus the Idempotency-Key header on the routes that honour it. */
export function documentIdempotency(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const output = jsonSchemaTransform(input);
  const mode = (input.route.config as { idempotency?: string } | undefined)?.idempotency;
  if (!mode) return output;
  const description =
    mode === "replay"
      ? "Optional, 1–255 characters, kept 24 hours per account. A repeat with the same body replays the first " +
        "successful response (header `Idempotent-Replayed: true`) without a new charge; a different body, or a " +
        "repeat while the first is still running, is 409 `idempotency_conflict`. Responses other than success " +
        "are not kept, so the same key can be retried."
      : "Optional, 1–255 characters, kept 24 hours per account. We keep no conversation text, so a repeat with " +
        "the same body is answered again, free (`usage.chargedPence` 0, header `Idempotent-Replayed: true`); a " +
        "different body, or a repeat while the first is still running, is 409 `idempotency_conflict`.";
  const schema = output.schema as Record<string, unknown>;
  schema.headers = {
    type: "object",
    properties: { "Idempotency-Key": { type: "string", minLength: 1, maxLength: 255, description } },
  };
  return output;
}

/** The document's frame; paths come from the route schemas. */
export function openApiInfo(publicUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Syllabi API",
      version: "1.0.0",
      description:
        "Curriculum data and tutoring for UK education. Syllabi is independent and is not affiliated with, " +
        "or endorsed by, any exam board. Every error has the body `{ error, message, requestId, param? }`; codes: " +
        Object.entries(errorCatalogue)
          .map(([code, { status }]) => `${status} ${code}`)
          .join(", ") +
        ".",
      license: { name: "Proprietary", identifier: "LicenseRef-Syllabi" },
    },
    servers: [{ url: publicUrl }],
    security: [{ bearerKey: [] }],
    components: {
      securitySchemes: {
        bearerKey: { type: "http" as const, scheme: "bearer", description: "An API key: syl_live_…" },
      },
    },
    tags: [
      { name: "Curriculum", description: "Catalogue data; free after the first top-up" },
      { name: "Tutoring", description: "Model-backed, paid endpoints" },
      { name: "Account", description: "Balance, usage and keys" },
    ],
  };
}
