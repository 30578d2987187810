import { cosineSimilarity, embed, embedMany, type EmbeddingModel } from "ai";
import type { CatalogueSnapshot, Subtopic, Topic } from "../catalogue/model.ts";
import { compareMatches, type AlignMatch, type AlignRequest, type Aligner } from "./aligner.ts";
import { embeddingCacheKey, type EmbeddingCache } from "./embedding-cache.ts";
import { createOfflineAligner, toMatch, type OfflineAligner } from "./offline-aligner.ts";

export type ConfiguredEmbeddingModel = Exclude<EmbeddingModel, string>;

export interface EmbeddingAlignerOptions {
  snapshot: CatalogueSnapshot;
  embeddingModel: ConfiguredEmbeddingModel;
  cache: EmbeddingCache;
  /** Reuse an offline aligner already built for the same snapshot rather than indexing twice. */
  lexical?: OfflineAligner;
}

/** Reciprocal-rank fusion constant; small because a subject has tens, not thousands, of subtopics. */
const fusionK = 10;
/** Embedding models take a few thousand tokens; the opening of a lesson plan carries its subject. */
const maxQueryChars = 8_000;

interface SubjectVectors {
  entries: { subtopic: Subtopic; topic: Topic; vector: number[] }[];
}

/** What is embedded for a subtopic: its names, description and the vocabulary of its notes. */
export function subtopicEmbeddingText(subtopic: Subtopic, topic: Topic): string {
  const parts = [`${subtopic.name} (${topic.name})`, subtopic.description];
  if (subtopic.keywords.length > 0) parts.push(`Keywords: ${subtopic.keywords.join(", ")}`);
  if (subtopic.notes) {
    parts.push(subtopic.notes.summary);
    parts.push(`Key terms: ${subtopic.notes.keyTerms.map((keyTerm) => keyTerm.term).join(", ")}`);
  }
  return parts.join("\n");
}

function modelKey(model: ConfiguredEmbeddingModel): string {
  return `${model.provider}/${model.modelId}`;
}

/** Ranks of ids by descending value, 1-based; ids whose value is not positive are left unranked. */
function ranksOf(values: ReadonlyMap<string, number>): Map<string, number> {
  const ordered = [...values]
    .filter(([, value]) => value > 0)
    .sort(([idA, a], [idB, b]) => b - a || (idA < idB ? -1 : idA > idB ? 1 : 0));
  return new Map(ordered.map(([id], index) => [id, index + 1]));
}

/**
 * Model-backed aligner: cosine similarity between the text and each subtopic's embedding, fused with the
 * lexical ranking by reciprocal rank so either signal can rescue the other. Subtopics are embedded once per
 * subject on first use (through the cache); each request embeds only its own text.
 */
export function createEmbeddingAligner(options: EmbeddingAlignerOptions): Aligner {
  const { snapshot, embeddingModel, cache } = options;
  const lexical = options.lexical ?? createOfflineAligner(snapshot);
  const key = modelKey(embeddingModel);
  const subjectVectors = new Map<string, Promise<SubjectVectors>>();

  async function loadSubject(subjectId: string): Promise<SubjectVectors> {
    const subject = snapshot.subjectById.get(subjectId);
    if (!subject) return { entries: [] };
    const items = subject.topics.flatMap((topic) =>
      topic.subtopics.map((subtopic) => {
        const text = subtopicEmbeddingText(subtopic, topic);
        return { subtopic, topic, text, cacheKey: embeddingCacheKey(key, text) };
      }),
    );
    const cached = await cache.get(items.map((item) => item.cacheKey));
    const missing = items.filter((item) => !cached.has(item.cacheKey));
    const vectors = new Map(cached);
    if (missing.length > 0) {
      const { embeddings } = await embedMany({
        model: embeddingModel,
        values: missing.map((item) => item.text),
      });
      const fresh = missing.map((item, index) => ({
        key: item.cacheKey,
        embedding: embeddings[index] ?? [],
      }));
      await cache.put(fresh);
      for (const entry of fresh) vectors.set(entry.key, entry.embedding);
    }
    return {
      entries: items.map(({ subtopic, topic, cacheKey }) => ({
        subtopic,
        topic,
        vector: [...(vectors.get(cacheKey) ?? [])],
      })),
    };
  }

  // Shared by concurrent requests, so not tied to any one request's abort signal.
  function vectorsFor(subjectId: string): Promise<SubjectVectors> {
    let pending = subjectVectors.get(subjectId);
    if (!pending) {
      pending = loadSubject(subjectId);
      subjectVectors.set(subjectId, pending);
      // A failed or aborted load is forgotten so the next request tries again.
      pending.catch(() => subjectVectors.delete(subjectId));
    }
    return pending;
  }

  return {
    engine: `embedding:${key}`,
    async align(request: AlignRequest, signal?: AbortSignal): Promise<AlignMatch[]> {
      signal?.throwIfAborted();
      const ranker = lexical.rankerFor(request.subjectId);
      const limit = Math.floor(request.limit);
      if (!ranker || !(limit > 0)) return [];

      const [{ entries }, { embedding: queryVector }] = await Promise.all([
        vectorsFor(request.subjectId),
        embed({
          model: embeddingModel,
          value: request.text.slice(0, maxQueryChars),
          ...(signal ? { abortSignal: signal } : {}),
        }),
      ]);

      const lexicalScores = new Map(
        ranker.rank(request.text).map((entry) => [entry.subtopic.id, entry.rawScore]),
      );
      const similarities = new Map(
        entries.map(({ subtopic, vector }) => [
          subtopic.id,
          vector.length === queryVector.length ? cosineSimilarity(queryVector, vector) : 0,
        ]),
      );
      const lexicalRanks = ranksOf(lexicalScores);
      const semanticRanks = ranksOf(similarities);
      const perfect = 2 / (fusionK + 1);

      return entries
        .map(({ subtopic, topic }) => {
          const lexicalRank = lexicalRanks.get(subtopic.id);
          const semanticRank = semanticRanks.get(subtopic.id);
          const fused =
            (lexicalRank ? 1 / (fusionK + lexicalRank) : 0) +
            (semanticRank ? 1 / (fusionK + semanticRank) : 0);
          return toMatch(subtopic, topic, fused / perfect);
        })
        .filter((match) => match.score > 0)
        .sort(compareMatches)
        .slice(0, limit);
    },
  };
}
