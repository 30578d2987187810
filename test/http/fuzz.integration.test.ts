import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCatalogue, type ErrorCode } from "../../src/http/errors.ts";
import { fund } from "../support/funding.ts";
import { api, createDeveloper, startTestApp, type TestApp } from "../support/harness.ts";
import { conformingValue, mutatedValue, type Hints, type JsonSchema } from "../support/schema-arbitrary.ts";
import { parseNdjson } from "../support/ndjson-stream.ts";

/**
 * Generated requests for every POST endpoint, from the request schemas in the served OpenAPI document: bodies
 * that conform, bodies with one thing wrong anywhere, arbitrary JSON, broken JSON, wrong content types and
 * abused headers. Every answer must be the contract's: a 4xx with the error body, or a success — never a 5xx —
 * and the balance must move by exactly what the successes say they charged.
 */

interface PostOperation {
  path: string;
  schema: JsonSchema;
}

let app: TestApp;
let key: string;
let operations: PostOperation[];
let hints: Hints;
let genieNames: string[];
let chargedPence = 0;
const fundedPence = 100_000;
const runs = Number(process.env.FUZZ_RUNS ?? 60);

beforeAll(async () => {
  app = await startTestApp({
    RATE_LIMIT_GENERAL_PER_MIN: "100000",
    RATE_LIMIT_AI_PER_MIN: "100000",
    RATE_LIMIT_IP_PER_MIN: "100000",
  });
  const developer = await createDeveloper(app, { unlocked: true });
  key = developer.key;
  await fund(app, developer.accountId, fundedPence);

  const document = (await (await fetch(`${app.baseUrl}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: JsonSchema }> } } }>;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) => {
    const schema = methods.post?.requestBody?.content["application/json"]?.schema;
    return path.startsWith("/api/v1/") && schema ? [{ path, schema }] : [];
  });

  const catalogue = app.runtime.catalogue;
  const subtopics = catalogue.subjects.flatMap((subject) =>
    subject.topics.flatMap((topic) => topic.subtopics.map((subtopic) => subtopic)),
  );
  genieNames = catalogue.subjects.map((subject) => subject.genie.shortName);
  hints = {
    subjectId: fc.constantFrom(...catalogue.subjects.map((subject) => subject.id)),
    subtopicId: fc.constantFrom(...subtopics.slice(0, 200).map((subtopic) => subtopic.id)),
    text: fc.constantFrom(...subtopics.slice(0, 50).map((subtopic) => `A lesson on ${subtopic.name}.`)),
    topic: fc.constantFrom("photosynthesis", "quadratic equations", "the causes of the First World War"),
    content: fc.constantFrom(
      "What is osmosis?",
      "Can you explain how to factorise x^2 + 5x + 6?",
      "Give me a quick quiz on the water cycle.",
    ),
  };
});
afterAll(() => app.close());

interface Outcome {
  status: number;
  headers: Headers;
  text: string;
}

async function send(
  path: string,
  body: string | undefined,
  headers: Record<string, string>,
): Promise<Outcome> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method: "POST",
    headers,
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Checks the answer against the contract; returns what it says was charged. */
function chargedBy(outcome: Outcome, label: string): number {
  const context = `${label} → ${outcome.status} ${outcome.text.slice(0, 300)}`;
  expect(outcome.status, context).toBeLessThan(500);
  expect(outcome.headers.get("cache-control"), context).toBe("private, no-store");
  expect(outcome.headers.get("request-id"), context).toMatch(/^req_/);
  if (outcome.status >= 400) {
    const body = JSON.parse(outcome.text) as { error: ErrorCode; message: unknown; requestId: unknown };
    expect(errorCatalogue[body.error]?.status, context).toBe(outcome.status);
    expect(typeof body.message, context).toBe("string");
    expect(body.requestId, context).toBe(outcome.headers.get("request-id"));
    return 0;
  }
  expect(outcome.status, context).toBe(200);
  if (outcome.headers.get("idempotent-replayed") === "true") return 0;
  if (outcome.headers.get("content-type")?.startsWith("application/x-ndjson")) {
    const events = parseNdjson<{ type: string; usage?: { chargedPence: number } }>(outcome.text);
    expect(events[0]?.type, context).toBe("start");
    const last = events.at(-1);
    expect(["done", "error"], context).toContain(last?.type);
    return last?.type === "done" ? (last.usage?.chargedPence ?? 0) : 0;
  }
  const body = JSON.parse(outcome.text) as { usage?: { chargedPence: number } };
  expect(body.usage, context).toBeDefined();
  return body.usage?.chargedPence ?? 0;
}

const json = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${key}`,
  "content-type": "application/json",
  ...extra,
});

function pathFor(operation: PostOperation, shortName: string): string {
  return operation.path.replace("{shortName}", encodeURIComponent(shortName));
}

const shortNames = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...genieNames) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 120 }) },
  );

describe("fuzzing the POST endpoints from their OpenAPI schemas", () => {
  it("finds every POST endpoint of the contract in the document", () => {
    expect(operations.map((operation) => operation.path).sort()).toEqual([
      "/api/v1/align",
      "/api/v1/chat",
      "/api/v1/genies/{shortName}/chat",
      "/api/v1/questions/generate",
    ]);
  });

  it("answers conforming, mutated and arbitrary bodies with the contract's success or 4xx", async () => {
    for (const operation of operations) {
      const valid = conformingValue(operation.schema, hints);
      const body = fc.oneof(
        { weight: 3, arbitrary: valid },
        { weight: 4, arbitrary: mutatedValue(valid) },
        { weight: 1, arbitrary: fc.jsonValue() },
      );
      await fc.assert(
        fc.asyncProperty(body, shortNames(), async (value, shortName) => {
          const path = pathFor(operation, shortName);
          const text = JSON.stringify(value);
          chargedPence += chargedBy(await send(path, text, json()), `POST ${path} ${text?.slice(0, 200)}`);
        }),
        { numRuns: runs },
      );
    }
  }, 180_000);

  it("answers broken JSON, wrong content types and abused headers with a 4xx error body", async () => {
    const operation = fc.constantFrom(...operations);
    const brokenJson = fc.oneof(
      fc.tuple(operation, fc.string({ maxLength: 200 })).map(([chosen, raw]) => ({ chosen, raw })),
      fc.tuple(operation, fc.jsonValue(), fc.nat()).map(([chosen, value, cut]) => {
        const raw = JSON.stringify({ value });
        return { chosen, raw: raw.slice(0, cut % raw.length) };
      }),
    );
    await fc.assert(
      fc.asyncProperty(brokenJson, shortNames(), async ({ chosen, raw }, shortName) => {
        const path = pathFor(chosen, shortName);
        chargedPence += chargedBy(await send(path, raw, json()), `POST ${path} raw ${raw.slice(0, 100)}`);
      }),
      { numRuns: runs },
    );

    const contentType = fc.constantFrom(
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/xml",
      "application/jsonx",
      "application/json-patch+json",
      "json",
      "*/*",
    );
    await fc.assert(
      fc.asyncProperty(operation, contentType, async (chosen, type) => {
        const path = pathFor(chosen, genieNames[0]!);
        const outcome = await send(path, '{"messages":[]}', json({ "content-type": type }));
        chargedPence += chargedBy(outcome, `POST ${path} as ${type}`);
        expect(outcome.status).toBe(415);
      }),
      { numRuns: Math.min(runs, 30) },
    );

    const authorization = fc.constantFrom(
      "",
      "Bearer",
      "Bearer ",
      "Basic c3lsOnNlY3JldA==",
      `bearer  ${key}`,
      `Bearer ${key} extra`,
      `Bearer ${key.slice(0, -1)}`,
      `Bearer ${key.slice(0, -1)}x`,
      `Bearer ${"a".repeat(8_000)}`,
      key,
      `Bearer syl_live_${"0".repeat(38)}`,
    );
    const idempotencyKey = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom("", " ", "x".repeat(256), "x".repeat(10_000), "x".repeat(20_000)),
      fc.string({ unit: fc.constantFrom(..."abcXYZ019-_:./"), minLength: 1, maxLength: 255 }),
    );
    await fc.assert(
      fc.asyncProperty(operation, authorization, idempotencyKey, async (chosen, auth, idempotency) => {
        const path = pathFor(chosen, genieNames[0]!);
        const headers: Record<string, string> = { "content-type": "application/json", authorization: auth };
        if (idempotency !== undefined) headers["idempotency-key"] = idempotency;
        const outcome = await send(path, "{}", headers);
        chargedPence += chargedBy(outcome, `POST ${path} authorization ${auth.slice(0, 40)}`);
        expect(outcome.status).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: runs },
    );
  }, 180_000);

  it("moved the balance by exactly what the successes charged", async () => {
    const account = await api(app, key, "GET", "/api/v1/account");
    expect((account.json.billing as { balancePence: number }).balancePence).toBe(fundedPence - chargedPence);
  });
});
