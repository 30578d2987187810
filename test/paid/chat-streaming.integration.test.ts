import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { balanceOf, fundedDeveloper } from "../support/funding.ts";
import { startTestApp, type TestApp } from "../support/harness.ts";
import { startOpenAiStandIn, type OpenAiStandIn } from "../support/openai-stand-in.ts";
import { parseNdjson } from "../support/ndjson-stream.ts";

/**
 * What happens on the wire when the reader is not an ideal one: a client that hangs up mid-reply, and one that
 * reads slowly. Both run against the model path (the local OpenAI-compatible stand-in streams slowly on demand).
 */
let app: TestApp;
let standIn: OpenAiStandIn;
const reply =
  "Osmosis is the movement of water molecules across a partially permeable membrane, from a dilute solution " +
  "to a more concentrated one. Plant cells placed in pure water take in water and become turgid.";

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  app = await startTestApp({
    AI_PROVIDER: "openai-compatible",
    AI_BASE_URL: standIn.url,
    AI_MODEL: "stand-in-tutor",
    AI_API_KEY: "sk-test",
    AI_TIMEOUT_MS: "20000",
  });
});
afterAll(async () => {
  await app.close();
  await standIn.close();
});
beforeEach(() => standIn.reset());

async function waitForBalance(key: string, expected: number): Promise<number> {
  let balance = await balanceOf(app, key);
  for (let attempt = 0; attempt < 50 && balance !== expected; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    balance = await balanceOf(app, key);
  }
  return balance;
}

function startChat(key: string, signal?: AbortSignal) {
  return fetch(`${app.baseUrl}/api/v1/genies/aqa-gcse-biology/chat`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "What is osmosis?" }] }),
    ...(signal ? { signal } : {}),
  });
}

describe("chat streaming to imperfect readers", () => {
  it("returns the reservation when the client hangs up mid-reply", async () => {
    const developer = await fundedDeveloper(app);
    standIn.enqueue({ kind: "text", text: reply, chunkSize: 4, chunkDelayMs: 40 });
    const controller = new AbortController();
    const response = await startChat(developer.key, controller.signal);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    while (!received.includes('"type":"delta"')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    // Mid-reply: the reservation is held, nothing is committed yet.
    expect(received).not.toContain('"type":"done"');
    controller.abort();

    expect(await waitForBalance(developer.key, 1000)).toBe(1000);
  });

  it("delivers every line intact and charges once to a reader that pauses between reads", async () => {
    const developer = await fundedDeveloper(app);
    standIn.enqueue({ kind: "text", text: reply, chunkSize: 3, chunkDelayMs: 2 });
    const response = await startChat(developer.key);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const events = parseNdjson<{ type: string; text?: string; usage?: { chargedPence: number } }>(text);
    expect(events[0]?.type).toBe("start");
    expect(events.at(-1)).toMatchObject({ type: "done", usage: { chargedPence: 4 } });
    const answer = events
      .filter((event) => event.type === "delta")
      .map((event) => event.text)
      .join("");
    expect(answer).toContain("Osmosis is the movement of water molecules");
    expect(answer).toContain("become turgid.");
    expect(await balanceOf(app, developer.key)).toBe(996);
  });
});

describe("reserving the price while the model starts", () => {
  it("streams and charges exactly once when the reservation and the provider race", async () => {
    const developer = await fundedDeveloper(app, 8);
    standIn.enqueue({ kind: "text", text: reply, chunkSize: 40 });
    const response = await startChat(developer.key);
    expect(response.status).toBe(200);
    const events = parseNdjson(await response.text());
    expect(events.at(-1)).toMatchObject({ type: "done", finishReason: "stop", usage: { chargedPence: 4 } });
    expect(await balanceOf(app, developer.key)).toBe(4);
  });

  it("answers 402 without a charge, and stops asking the provider once the account is known to be short", async () => {
    const developer = await fundedDeveloper(app, 3);
    standIn.setFallback(() => ({ kind: "text", text: reply, chunkSize: 40 }));
    const first = await startChat(developer.key);
    expect(first.status).toBe(402);
    expect(await first.json()).toMatchObject({ error: "insufficient_balance" });
    const providerCallsAfterFirst = standIn.chatRequests().length;

    for (let attempt = 0; attempt < 3; attempt += 1) {
      const again = await startChat(developer.key);
      expect(again.status).toBe(402);
      await again.body?.cancel();
    }
    expect(standIn.chatRequests().length).toBe(providerCallsAfterFirst);
    expect(await balanceOf(app, developer.key)).toBe(3);
  });
});
