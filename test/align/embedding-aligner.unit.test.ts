import { MockEmbeddingModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import {
  createEmbeddingAligner,
  createMemoryEmbeddingCache,
  createOfflineAligner,
  embeddingCacheKey,
} from "../../src/align/index.ts";
import { stems } from "../../src/catalogue/search/text-analysis.ts";
import { fixtureCatalogue } from "./catalogue-fixture.ts";

const snapshot = fixtureCatalogue();
const biology = "aqa-gcse-biology-8461";
const biologySubtopicCount = snapshot.subjectById
  .get(biology)!
  .topics.flatMap((topic) => topic.subtopics).length;

/**
 * A faithful stand-in for an embedding model: a hashed bag of stems, plus a few shared "concept" dimensions so
 * texts with no word in common can still be close, as with a real model.
 */
const concepts: Record<string, string> = {
  sunlight: "light",
  light: "light",
  chlorophyl: "light",
  leaf: "light",
  leav: "light",
  sprint: "exercis",
  exercis: "exercis",
  muscl: "exercis",
  lactic: "exercis",
};
const dimensions = 64;

function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const term of stems(text)) {
    const key = concepts[term] ?? term;
    let hash = 0;
    for (const character of key) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
    vector[hash % dimensions]! += concepts[term] ? 3 : 1;
  }
  return vector;
}

function fakeModel() {
  const model = new MockEmbeddingModelV3({
    provider: "fake",
    modelId: "bag-of-stems",
    maxEmbeddingsPerCall: 100,
    doEmbed: async ({ values }) => {
      return { embeddings: values.map(fakeEmbedding), warnings: [] };
    },
  });
  return model;
}

describe("embedding aligner", () => {
  it("names the model it uses", () => {
    const aligner = createEmbeddingAligner({
      snapshot,
      embeddingModel: fakeModel(),
      cache: createMemoryEmbeddingCache(),
    });
    expect(aligner.engine).toBe("embedding:fake/bag-of-stems");
  });

  it("ranks the right subtopic first and keeps scores in [0, 1], best first, within the limit", async () => {
    const aligner = createEmbeddingAligner({
      snapshot,
      embeddingModel: fakeModel(),
      cache: createMemoryEmbeddingCache(),
    });
    const matches = await aligner.align({
      subjectId: biology,
      text: "How do leaves use sunlight and chlorophyll to make glucose?",
      limit: 4,
    });
    expect(matches[0]?.subtopicId).toBe(`${biology}.photosynthesis`);
    expect(matches.length).toBeLessThanOrEqual(4);
    matches.forEach((match, index) => {
      expect(match.score).toBeGreaterThanOrEqual(0);
      expect(match.score).toBeLessThanOrEqual(1);
      if (index > 0) expect(matches[index - 1]!.score).toBeGreaterThanOrEqual(match.score);
    });
  });

  it("lets semantic similarity rescue a text with little vocabulary in common", async () => {
    const aligner = createEmbeddingAligner({
      snapshot,
      embeddingModel: fakeModel(),
      cache: createMemoryEmbeddingCache(),
    });
    const [first] = await aligner.align({
      subjectId: biology,
      text: "Why do my muscles burn after a sprint?",
      limit: 1,
    });
    expect(first?.subtopicId).toBe(`${biology}.respiration`);
  });

  it("embeds each subtopic once, through the cache, and only the request text after that", async () => {
    const cache = createMemoryEmbeddingCache();
    const model = fakeModel();
    const aligner = createEmbeddingAligner({ snapshot, embeddingModel: model, cache });
    await Promise.all([
      aligner.align({ subjectId: biology, text: "osmosis", limit: 3 }),
      aligner.align({ subjectId: biology, text: "mitosis", limit: 3 }),
    ]);
    await aligner.align({ subjectId: biology, text: "evolution", limit: 3 });
    const embedded = model.doEmbedCalls.flatMap((call) => call.values);
    expect(embedded).toHaveLength(biologySubtopicCount + 3);
    expect(cache.size).toBe(biologySubtopicCount);

    // A second instance (say, after a restart) finds every subtopic in the cache.
    const again = fakeModel();
    const restarted = createEmbeddingAligner({ snapshot, embeddingModel: again, cache });
    await restarted.align({ subjectId: biology, text: "osmosis", limit: 3 });
    expect(again.doEmbedCalls.flatMap((call) => call.values)).toEqual(["osmosis"]);
  });

  it("keys the cache by model and text, so another model or edited text misses", () => {
    expect(embeddingCacheKey("a/m1", "text")).not.toBe(embeddingCacheKey("a/m2", "text"));
    expect(embeddingCacheKey("a/m1", "text")).not.toBe(embeddingCacheKey("a/m1", "text!"));
    expect(embeddingCacheKey("a/m1", "text")).toBe(embeddingCacheKey("a/m1", "text"));
  });

  it("answers nothing for an unknown subject without calling the model", async () => {
    const model = fakeModel();
    const aligner = createEmbeddingAligner({
      snapshot,
      embeddingModel: model,
      cache: createMemoryEmbeddingCache(),
    });
    expect(await aligner.align({ subjectId: "no-such-subject", text: "osmosis", limit: 3 })).toEqual([]);
    expect(model.doEmbedCalls).toHaveLength(0);
  });

  it("reports a model failure to the caller and tries again on the next request", async () => {
    const cache = createMemoryEmbeddingCache();
    const lexical = createOfflineAligner(snapshot);
    let available = false;
    const model = new MockEmbeddingModelV3({
      provider: "fake",
      modelId: "flaky",
      doEmbed: async ({ values }) => {
        if (!available) throw new Error("model unavailable");
        return { embeddings: values.map(fakeEmbedding), warnings: [] };
      },
    });
    const aligner = createEmbeddingAligner({ snapshot, embeddingModel: model, cache, lexical });
    await expect(aligner.align({ subjectId: biology, text: "osmosis", limit: 3 })).rejects.toThrow();
    expect(cache.size).toBe(0);
    available = true;
    const [first] = await aligner.align({ subjectId: biology, text: "osmosis", limit: 3 });
    expect(first?.subtopicId).toBe(`${biology}.transport-in-cells`);
    expect(cache.size).toBe(biologySubtopicCount);
  });

  it("stops at once for an aborted request and hands the signal to the model", async () => {
    const model = fakeModel();
    const aligner = createEmbeddingAligner({
      snapshot,
      embeddingModel: model,
      cache: createMemoryEmbeddingCache(),
    });
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      aligner.align({ subjectId: biology, text: "osmosis", limit: 3 }, aborted.signal),
    ).rejects.toThrow();
    expect(model.doEmbedCalls).toHaveLength(0);

    const live = new AbortController();
    await aligner.align({ subjectId: biology, text: "osmosis", limit: 3 }, live.signal);
    const queryCall = model.doEmbedCalls.find(
      (call) => call.values.length === 1 && call.values[0] === "osmosis",
    );
    expect(queryCall?.abortSignal).toBe(live.signal);
  });
});
