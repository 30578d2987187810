import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAiStandIn, type OpenAiStandIn } from "../support/openai-stand-in.ts";

/** The stand-in itself: the shapes other suites rely on, checked with plain fetch. */
let standIn: OpenAiStandIn;
beforeAll(async () => {
  standIn = await startOpenAiStandIn();
});
afterAll(async () => standIn.close());

const post = (path: string, body: unknown) =>
  fetch(`${standIn.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("OpenAI-compatible stand-in", () => {
  it("answers non-streaming chat completions and records the request", async () => {
    standIn.enqueue({ kind: "text", text: "Hi there" });
    const response = await post("/chat/completions", {
      model: "m",
      messages: [
        { role: "system", content: "rules" },
        { role: "user", content: "hi" },
      ],
    });
    const body = (await response.json()) as {
      choices: { message: { content: string } }[];
      usage: { total_tokens: number };
    };
    expect(body.choices[0]?.message.content).toBe("Hi there");
    expect(body.usage.total_tokens).toBeGreaterThan(0);
    expect(standIn.systemPromptOf(standIn.chatRequests().at(-1)!)).toBe("rules");
  });

  it("streams SSE chunks ending in [DONE], with usage when asked", async () => {
    standIn.enqueue({ kind: "text", text: "abcdefghij", chunkSize: 4 });
    const response = await post("/chat/completions", {
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      messages: [],
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = (await response.text()).split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const payloads = events.slice(0, -1).map(
      (event) =>
        JSON.parse(event.slice("data: ".length)) as {
          choices: { delta: { content?: string } }[];
          usage?: unknown;
        },
    );
    expect(payloads.map((payload) => payload.choices[0]?.delta.content ?? "").join("")).toBe("abcdefghij");
    expect(payloads.at(-1)?.usage).toBeDefined();
  });

  it("answers a forced tool call with the JSON as arguments", async () => {
    standIn.enqueue({ kind: "json", value: { ok: true } });
    const response = await post("/chat/completions", {
      model: "m",
      messages: [],
      tools: [{ type: "function", function: { name: "json" } }],
      tool_choice: { type: "function", function: { name: "json" } },
    });
    const body = (await response.json()) as {
      choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[];
    };
    expect(body.choices[0]?.message.tool_calls[0]?.function).toEqual({
      name: "json",
      arguments: '{"ok":true}',
    });
  });

  it("scripts HTTP errors with the OpenAI error body", async () => {
    standIn.enqueue({ kind: "http-error", status: 429 });
    const response = await post("/chat/completions", { model: "m", messages: [] });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/429/);
  });

  it("serves deterministic embeddings", async () => {
    const first = (await (await post("/embeddings", { model: "e", input: ["osmosis"] })).json()) as {
      data: { embedding: number[] }[];
    };
    const second = (await (await post("/embeddings", { model: "e", input: "osmosis" })).json()) as {
      data: { embedding: number[] }[];
    };
    expect(first.data[0]?.embedding).toEqual(second.data[0]?.embedding);
  });
});
