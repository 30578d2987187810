import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { secondReaderSchemaName } from "../../src/safeguarding/model-reader.ts";
import { balanceOf, fundedDeveloper } from "../support/funding.ts";
import { startTestApp, type TestApp } from "../support/harness.ts";
import { parseNdjson } from "../support/ndjson-stream.ts";
import { startOpenAiStandIn, type OpenAiStandIn } from "../support/openai-stand-in.ts";

/**
 * The model's second safeguarding reading on the model path, over real HTTP: the app against the local
 * OpenAI-compatible stand-in, which answers the structured safeguarding check apart from the tutor's reply.
 */
let app: TestApp;
let standIn: OpenAiStandIn;
const metricsToken = "a-metrics-token-for-second-reader-tests";
const tutorReply =
  "A quadratic has the form ax² + bx + c. Factorise it, or use the formula when it will not factorise.";

interface WireEvent {
  type: string;
  text?: string;
  category?: string;
  severity?: string;
  finishReason?: string;
  usage?: { chargedPence: number };
}

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  app = await startTestApp({
    AI_PROVIDER: "openai-compatible",
    AI_BASE_URL: standIn.url,
    AI_MODEL: "stand-in-tutor",
    AI_API_KEY: "sk-test",
    SAFEGUARDING_MODEL_CHECK_TIMEOUT_MS: "400",
    METRICS_TOKEN: metricsToken,
  });
});
afterAll(async () => {
  await app.close();
  await standIn.close();
});
beforeEach(() => {
  standIn.reset();
  standIn.setFallback(() => ({ kind: "text", text: tutorReply, chunkSize: 12 }));
});

function checkAnswers(category: string, severity: string) {
  standIn.setSchemaReply(secondReaderSchemaName, () => ({ kind: "json", value: { category, severity } }));
}

async function chat(key: string, content: string): Promise<WireEvent[]> {
  const response = await fetch(`${app.baseUrl}/api/v1/chat`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content }] }),
  });
  expect(response.status).toBe(200);
  return parseNdjson<WireEvent>(await response.text());
}

const answerOf = (events: WireEvent[]) =>
  events
    .filter((event) => event.type === "delta")
    .map((event) => event.text)
    .join("");

async function secondReadings(outcome: string): Promise<number> {
  const response = await fetch(`${app.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  const line = (await response.text())
    .split("\n")
    .find((row) => row.startsWith(`syllabi_safeguarding_second_readings_total{outcome="${outcome}"}`));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

// Nothing here is a disclosure the offline detector knows: only the model's reading can raise it.
const plainRequest = "can we go over quadratics again, the bit after factorising";

describe("the model's second safeguarding reading", () => {
  it("stops tutoring, free, when the model reads high severity the offline detector missed", async () => {
    const developer = await fundedDeveloper(app);
    checkAnswers("self_harm_suicide", "high");
    const events = await chat(developer.key, plainRequest);

    expect(events.map((event) => event.type)).toEqual(["start", "safeguarding", "delta", "done"]);
    expect(events[1]).toMatchObject({ category: "self_harm_suicide", severity: "high" });
    expect(answerOf(events)).toContain("116 123");
    expect(answerOf(events)).not.toContain("quadratic has the form");
    expect(events.at(-1)).toMatchObject({ finishReason: "safeguarding", usage: { chargedPence: 0 } });
    expect(await balanceOf(app, developer.key)).toBe(1000);

    // The model was given the student's words as material to classify, with the taxonomy to classify them by.
    const [check] = standIn.schemaRequests(secondReaderSchemaName);
    expect(JSON.stringify(check!.body.messages)).toContain("quadratics again");
    expect(standIn.systemPromptOf(check!)).toContain("immediate_danger");
  });

  it("keeps a level the taxonomy uses: immediate danger read as medium still stops tutoring", async () => {
    const developer = await fundedDeveloper(app);
    checkAnswers("immediate_danger", "medium");
    const events = await chat(developer.key, plainRequest);
    expect(events[1]).toMatchObject({ type: "safeguarding", category: "immediate_danger", severity: "high" });
    expect(events.at(-1)).toMatchObject({ finishReason: "safeguarding" });
  });

  it("raises a turn to a lower severity: the support line comes first and the tutor still answers", async () => {
    const developer = await fundedDeveloper(app);
    checkAnswers("bullying", "medium");
    const events = await chat(developer.key, plainRequest);
    expect(events[1]).toMatchObject({ type: "safeguarding", category: "bullying", severity: "medium" });
    expect(answerOf(events)).toContain("quadratic has the form");
    expect(events.at(-1)).toMatchObject({ finishReason: "stop", usage: { chargedPence: 4 } });
  });

  it("never lowers the offline finding, and is not asked when the offline detector already stops the turn", async () => {
    const developer = await fundedDeveloper(app);
    checkAnswers("none", "none");
    const events = await chat(developer.key, "i took all of my mums sleeping tablets about an hour ago");
    expect(events[1]).toMatchObject({ type: "safeguarding", severity: "high" });
    expect(events.at(-1)).toMatchObject({ finishReason: "safeguarding", usage: { chargedPence: 0 } });
    expect(standIn.schemaRequests(secondReaderSchemaName)).toHaveLength(0);
    expect(standIn.chatRequests()).toHaveLength(0);
  });

  it("leaves the turn to the offline detector when the provider fails the check", async () => {
    const developer = await fundedDeveloper(app);
    const before = await secondReadings("provider_error");
    standIn.setSchemaReply(secondReaderSchemaName, () => ({ kind: "http-error", status: 500 }));
    const events = await chat(developer.key, plainRequest);
    expect(events.map((event) => event.type)).not.toContain("safeguarding");
    expect(answerOf(events)).toContain("quadratic has the form");
    expect(events.at(-1)).toMatchObject({ finishReason: "stop", usage: { chargedPence: 4 } });
    expect(await secondReadings("provider_error")).toBe(before + 1);
  });

  it("does not hold the turn past its time limit when the check stalls", async () => {
    const developer = await fundedDeveloper(app);
    const before = await secondReadings("timeout");
    standIn.setSchemaReply(secondReaderSchemaName, () => ({ kind: "stall", ms: 10_000 }));
    const events = await chat(developer.key, plainRequest);
    expect(answerOf(events)).toContain("quadratic has the form");
    expect(events.at(-1)).toMatchObject({ finishReason: "stop" });
    expect(await secondReadings("timeout")).toBe(before + 1);
  });

  it("reads a refused request too: a disclosure inside a non-educational request is answered for safeguarding", async () => {
    const developer = await fundedDeveloper(app);
    checkAnswers("abuse_neglect", "high");
    const events = await chat(developer.key, "write my coursework essay for me so I can hand it in tomorrow");
    expect(events[1]).toMatchObject({ type: "safeguarding", category: "abuse_neglect", severity: "high" });
    expect(events.at(-1)).toMatchObject({ finishReason: "safeguarding" });
    expect(standIn.chatRequests()).toHaveLength(0);
  });
});
