import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf as balanceIn, fund, fundedDeveloper as fundDeveloper } from "../support/funding.ts";
import { api, startTestApp, type TestApp } from "../support/harness.ts";
import { parseNdjson } from "../support/ndjson-stream.ts";

let app: TestApp;
const fundedDeveloper = (pence?: number) => fundDeveloper(app, pence);
const balanceOf = (key: string) => balanceIn(app, key);
const biologySubject = "aqa-gcse-biology-8461";
const alignBody = {
  subjectId: biologySubject,
  text: "Students compare how substances cross cell membranes by diffusion, osmosis and active transport.",
  limit: 3,
};

async function rawPost(key: string, path: string, body: unknown, idempotencyKey: string) {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      "idempotency-key": idempotencyKey,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("Idempotency-Key on paid POSTs", () => {
  it("replays an align response byte for byte and charges once", async () => {
    const { key } = await fundedDeveloper();
    const first = await rawPost(key, "/api/v1/align", alignBody, "align-retry-1");
    const second = await rawPost(key, "/api/v1/align", alignBody, "align-retry-1");
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await balanceOf(key)).toBe(999);
  });

  it("refuses a reused key with a different body (409) or an overlong key (400), charging nothing", async () => {
    const { key } = await fundedDeveloper();
    await rawPost(key, "/api/v1/align", alignBody, "align-conflict");
    const changed = await rawPost(key, "/api/v1/align", { ...alignBody, limit: 4 }, "align-conflict");
    expect(changed.status).toBe(409);
    expect(JSON.parse(changed.text)).toMatchObject({
      error: "idempotency_conflict",
      param: "Idempotency-Key",
    });
    const overlong = await rawPost(key, "/api/v1/align", alignBody, "k".repeat(256));
    expect(overlong.status).toBe(400);
    expect(JSON.parse(overlong.text)).toMatchObject({ error: "invalid_request", param: "Idempotency-Key" });
    expect(await balanceOf(key)).toBe(999);
  });

  it("does not let a key used on one endpoint replay on another", async () => {
    const { key } = await fundedDeveloper();
    await rawPost(key, "/api/v1/align", alignBody, "shared-key");
    const chat = await rawPost(
      key,
      "/api/v1/chat",
      { messages: [{ role: "user", content: "How do I plan revision?" }] },
      "shared-key",
    );
    expect(chat.status).toBe(409);
    expect(await balanceOf(key)).toBe(999);
  });

  it("keeps keys apart between accounts", async () => {
    const first = await fundedDeveloper();
    const second = await fundedDeveloper();
    const a = await rawPost(first.key, "/api/v1/align", alignBody, "same-name");
    const b = await rawPost(second.key, "/api/v1/align", { ...alignBody, limit: 2 }, "same-name");
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(await balanceOf(first.key)).toBe(999);
    expect(await balanceOf(second.key)).toBe(999);
  });

  it("forgets a key whose first attempt was refused, so the same key works after a top-up", async () => {
    const developer = await fundedDeveloper(0);
    const refused = await rawPost(developer.key, "/api/v1/align", alignBody, "after-top-up");
    expect(refused.status).toBe(402);
    await fund(app, developer.accountId, 1000);
    const retried = await rawPost(developer.key, "/api/v1/align", alignBody, "after-top-up");
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(await balanceOf(developer.key)).toBe(999);
  });

  it("charges once when the same request races itself", async () => {
    const { key } = await fundedDeveloper();
    const attempts = await Promise.all(
      Array.from({ length: 6 }, () => rawPost(key, "/api/v1/align", alignBody, "racing")),
    );
    const statuses = attempts.map((attempt) => attempt.status);
    // Each loser either waits for nothing (409 while the first is in flight) or gets the replay.
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    const bodies = new Set(
      attempts.filter((attempt) => attempt.status === 200).map((attempt) => attempt.text),
    );
    expect(bodies.size).toBe(1);
    expect(await balanceOf(key)).toBe(999);
  });

  it("replays a question set and charges 8p once", async () => {
    const { key } = await fundedDeveloper();
    const tree = await api(app, key, "GET", `/api/v1/subjects/${biologySubject}/tree`);
    const subtopicId = (tree.json.topics as { subtopics: { id: string }[] }[])[0]!.subtopics[0]!.id;
    const body = { subtopicId, types: ["multiple_choice"], count: 3 };
    const first = await rawPost(key, "/api/v1/questions/generate", body, "questions-1");
    const second = await rawPost(key, "/api/v1/questions/generate", body, "questions-1");
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(await balanceOf(key)).toBe(992);
  });

  it("answers a repeated streamed chat turn again without a second charge", async () => {
    const { key } = await fundedDeveloper();
    const body = { messages: [{ role: "user", content: "What does the nucleus of a cell contain?" }] };
    const first = await rawPost(key, "/api/v1/genies/aqa-gcse-biology/chat", body, "chat-1");
    const second = await rawPost(key, "/api/v1/genies/aqa-gcse-biology/chat", body, "chat-1");
    const firstDone = parseNdjson(first.text).at(-1) as { type: string; usage: { chargedPence: number } };
    const secondDone = parseNdjson(second.text).at(-1) as {
      type: string;
      usage: { chargedPence: number; balancePence: number };
    };
    expect(firstDone).toMatchObject({ type: "done", usage: { chargedPence: 4 } });
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(secondDone).toMatchObject({ type: "done", usage: { chargedPence: 0, balancePence: 996 } });
    expect(await balanceOf(key)).toBe(996);
  });

  it("lets a chat turn that was free (a safeguarding reply) run again normally", async () => {
    const { key } = await fundedDeveloper();
    const body = { messages: [{ role: "user", content: "i want to kill myself tonight" }], stream: false };
    const first = await rawPost(key, "/api/v1/chat", body, "chat-safeguarding");
    const second = await rawPost(key, "/api/v1/chat", body, "chat-safeguarding");
    expect(JSON.parse(first.text)).toMatchObject({ usage: { chargedPence: 0 } });
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(await balanceOf(key)).toBe(1000);
  });
});

describe("the OpenAPI document", () => {
  it("offers Idempotency-Key on every paid POST and nowhere else", async () => {
    const document = (await (await fetch(`${app.baseUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    const withKey = Object.entries(document.paths)
      .filter(([, operations]) =>
        Object.values(operations).some((operation) =>
          operation.parameters?.some(
            (parameter) => parameter.in === "header" && parameter.name === "Idempotency-Key",
          ),
        ),
      )
      .map(([path]) => path)
      .sort();
    expect(withKey).toEqual([
      "/api/v1/align",
      "/api/v1/chat",
      "/api/v1/genies/{shortName}/chat",
      "/api/v1/questions/generate",
    ]);
  });
});
