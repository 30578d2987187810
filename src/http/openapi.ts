import { jsonSchemaTransform } from "fastify-type-provider-zod";
import type { ApiRouteGuard } from "./api-guard.ts";
import { errorCatalogue, statusesFor, type ErrorCode } from "./errors.ts";

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type TransformOutput = ReturnType<typeof jsonSchemaTransform>;
type JsonObject = Record<string, unknown>;

/** What a route adds to its own OpenAPI entry beyond what its guard and schemas already say. */
export interface RouteDocumentation {
  /** Outcomes particular to this route (e.g. 409 `email_taken`); the generic ones are derived. */
  errors?: readonly ErrorCode[];
  /** The success status when it is not 200 (e.g. 201 for a creation). */
  successStatus?: number;
  /** A platform route callable without a session (register, login). */
  withoutSession?: boolean;
}

declare module "fastify" {
  interface FastifyContextConfig {
    openapi?: RouteDocumentation;
  }
}

const sessionCookieScheme = "platformSession";

/** Path parameters and body fields that name a catalogue id answer their own 404 when the id is unknown. */
const notFoundByField: Record<string, ErrorCode> = {
  subjectId: "subject_not_found",
  subtopicId: "subtopic_not_found",
  shortName: "genie_not_found",
};

function propertiesOf(schema: unknown): string[] {
  const properties = (schema as { properties?: JsonObject } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}

/** Every error an /api/v1 route can answer, from its guard (the order of checks in the contract) and its inputs. */
function apiErrors(route: TransformInput["route"], schema: JsonObject, guard: ApiRouteGuard): ErrorCode[] {
  const codes: ErrorCode[] = [
    "missing_api_key",
    "invalid_api_key",
    "revoked_api_key",
    "account_suspended",
    "insufficient_scope",
    "rate_limited",
    "internal_error",
    "service_unavailable",
  ];
  if (guard.endpoint) codes.push("endpoint_withdrawn");
  if (guard.requiresDataUnlock) codes.push("topup_required");
  const methods = [route.method].flat();
  if (methods.includes("POST")) codes.push("invalid_json", "payload_too_large", "unsupported_media_type");
  if (schema.body || schema.querystring || schema.params) codes.push("invalid_request");
  if (guard.ai) codes.push("insufficient_balance", "model_unavailable");
  if ((route.config as { idempotency?: string } | undefined)?.idempotency) codes.push("idempotency_conflict");
  for (const field of [schema.params, schema.body, schema.querystring].flatMap(propertiesOf)) {
    const code = notFoundByField[field];
    if (code) codes.push(code);
  }
  return codes;
}

/** The platform's errors: session, CSRF on every state change, validation. */
function platformErrors(
  route: TransformInput["route"],
  schema: JsonObject,
  docs: RouteDocumentation,
): ErrorCode[] {
  const codes: ErrorCode[] = ["internal_error", "service_unavailable"];
  const methods = [route.method].flat();
  if (methods.some((method) => method !== "GET" && method !== "HEAD")) codes.push("csrf_failed");
  if (!docs.withoutSession) codes.push("unauthenticated");
  if (schema.body || schema.querystring || schema.params) codes.push("invalid_request");
  if (schema.body) codes.push("invalid_json");
  return codes;
}

function errorResponse(codes: ErrorCode[]): JsonObject {
  const description = codes.map((code) => `\`${code}\`: ${errorCatalogue[code].message}`).join(" ");
  return {
    description,
    content: {
      "application/json": {
        schema: {
          type: "object",
          required: ["error", "message", "requestId"],
          properties: {
            error: { type: "string", enum: codes },
            message: { type: "string", description: "For people; branch on `error`." },
            requestId: { type: "string", pattern: "^req_" },
            param: { type: "string", description: "The input field at fault, e.g. `messages[3].role`." },
            ...(codes.includes("rate_limited") ? { retryAfterSeconds: { type: "integer", minimum: 1 } } : {}),
          },
        },
      },
    },
  };
}

/** `GET /api/v1/subjects/:subjectId/tree` → `getSubjectsTree`; platform routes start with `platform`. */
function operationIdOf(method: string, url: string): string {
  const platform = url.startsWith("/platform/api");
  const words = url
    .replace(/^\/(api\/v1|platform\/api)\//, "")
    .split(/[/_-]/)
    .filter((part) => part !== "" && !part.startsWith(":"));
  const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const name = method.toLowerCase() + words.map(pascal).join("");
  return platform ? `platform${pascal(name)}` : name;
}

function addHeaders(schema: JsonObject, properties: JsonObject, required: string[] = []): void {
  const existing = (schema.headers ?? { type: "object", properties: {} }) as {
    properties?: JsonObject;
    required?: string[];
  };
  schema.headers = {
    type: "object",
    properties: { ...existing.properties, ...properties },
    ...(existing.required || required.length > 0
      ? { required: [...(existing.required ?? []), ...required] }
      : {}),
  };
}

function idempotencyDescription(mode: string): string {
  return mode === "replay"
    ? "Optional, 1–255 characters, kept 24 hours per account. A repeat with the same body replays the first " +
        "successful response (header `Idempotent-Replayed: true`) without a new charge; a different body, or a " +
        "repeat while the first is still running, is 409 `idempotency_conflict`. Responses other than success " +
        "are not kept, so the same key can be retried."
    : "Optional, 1–255 characters, kept 24 hours per account. We keep no conversation text, so a repeat with " +
        "the same body is answered again, free (`usage.chargedPence` 0, header `Idempotent-Replayed: true`); a " +
        "different body, or a repeat while the first is still running, is 409 `idempotency_conflict`.";
}

/**
 * The zod-to-JSON-Schema transform, plus what the document needs and the route schemas do not say: an
 * operationId, every error the route can answer (generated from the one error catalogue), the Idempotency-Key
 * header where honoured, and the platform's cookie session and CSRF header instead of the API key.
 */
export function documentRoute(input: TransformInput): TransformOutput {
  const output = jsonSchemaTransform(input);
  const schema = output.schema as JsonObject | undefined;
  // Routes without a schema are untagged, so the document leaves them out.
  if (!schema || schema.hide) return output;
  const { route } = input;
  const config = (route.config ?? {}) as {
    guard?: ApiRouteGuard;
    idempotency?: string;
    openapi?: RouteDocumentation;
  };
  const docs = config.openapi ?? {};
  const method = [route.method].flat()[0] ?? "GET";
  schema.operationId ??= operationIdOf(method, route.url);

  if (config.idempotency) {
    addHeaders(schema, {
      "Idempotency-Key": {
        type: "string",
        minLength: 1,
        maxLength: 255,
        description: idempotencyDescription(config.idempotency),
      },
    });
  }

  const platform = route.url.startsWith("/platform/");
  const codes = [
    ...(config.guard
      ? apiErrors(route, schema, config.guard)
      : platform
        ? platformErrors(route, schema, docs)
        : []),
    ...(docs.errors ?? []),
  ];
  const successStatus = String(docs.successStatus ?? 200);
  const existing = (schema.response ?? {}) as JsonObject;
  const responses: JsonObject = { ...existing };
  if (!(successStatus in responses)) {
    responses[successStatus] = { description: docs.successStatus === 201 ? "Created" : "Success" };
  }
  for (const [status, statusCodes] of statusesFor([...new Set(codes)])) {
    responses[String(status)] ??= errorResponse(statusCodes);
  }
  schema.response = responses;

  if (platform) {
    schema.security = docs.withoutSession ? [] : [{ [sessionCookieScheme]: [] }];
    if (method !== "GET") {
      addHeaders(
        schema,
        {
          "X-CSRF-Token": {
            type: "string",
            description:
              "The value of the `csrf_token` cookie (double submit); any platform response sets it.",
          },
        },
        ["X-CSRF-Token"],
      );
    }
  }
  return output;
}

/** The document's frame; paths come from the route schemas and the server entry from the app, when it is made. */
export function openApiInfo() {
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
    security: [{ bearerKey: [] }],
    components: {
      securitySchemes: {
        bearerKey: { type: "http" as const, scheme: "bearer", description: "An API key: syl_live_…" },
        [sessionCookieScheme]: {
          type: "apiKey" as const,
          in: "cookie" as const,
          name: "syllabi_session",
          description:
            "The developer platform's session cookie (HttpOnly, SameSite=Lax), set by register and login. " +
            "State-changing platform requests also need the X-CSRF-Token header.",
        },
      },
    },
    tags: [
      { name: "Curriculum", description: "Catalogue data; free after the first top-up" },
      { name: "Tutoring", description: "Model-backed, paid endpoints" },
      { name: "Account", description: "Balance, usage and keys" },
      {
        name: "Platform",
        description:
          "The developer platform behind the portal: session cookie and CSRF header, never CORS-open. " +
          "Everything a person can do in the portal, a script can do here.",
      },
    ],
  };
}
