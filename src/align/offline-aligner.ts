import type { CatalogueSnapshot, Subtopic, Topic } from "../catalogue/model.ts";
import { compareMatches, roundScore, type AlignMatch, type AlignRequest, type Aligner } from "./aligner.ts";
import { LexicalIndex, queryTerms, type FieldSpec, type FieldTexts } from "./lexical-index.ts";

type SubtopicField = "name" | "keywords" | "topic" | "description" | "notes";

/**
 * A subtopic's name and keywords are what a teacher's text most often repeats; the topic name places it;
 * descriptions and knowledge notes add the surrounding vocabulary but are long, so count for less.
 */
const subtopicFields: Record<SubtopicField, FieldSpec> = {
  name: { weight: 4, lengthNormalisation: 0.3 },
  keywords: { weight: 2.5, lengthNormalisation: 0.4 },
  topic: { weight: 0.8, lengthNormalisation: 0.2 },
  description: { weight: 1.5, lengthNormalisation: 0.75 },
  notes: { weight: 0.6, lengthNormalisation: 0.75 },
};

export interface RankedSubtopic {
  subtopic: Subtopic;
  topic: Topic;
  /** Raw lexical score (unbounded, 0 when nothing matched). */
  rawScore: number;
  /** The raw score this subtopic gets from a text that is just its name. */
  nameScale: number;
}

/** The lexical ranking of one subject's subtopics, reused by the embedding aligner for fusion. */
export interface SubjectRanker {
  rank(text: string): RankedSubtopic[];
}

/** Maps a raw score to [0, 1]: about 0.78 for a text that names the subtopic outright, rising towards 1. */
export function lexicalConfidence({ rawScore, nameScale }: RankedSubtopic): number {
  return 1 - Math.exp((-1.5 * rawScore) / nameScale);
}

function subtopicTexts(subtopic: Subtopic, topic: Topic): FieldTexts<SubtopicField> {
  const notes = subtopic.notes;
  return {
    name: [subtopic.name],
    keywords: [...subtopic.keywords, ...(notes?.keyTerms.map((keyTerm) => keyTerm.term) ?? [])],
    topic: [topic.name],
    description: [subtopic.description],
    notes: notes
      ? [
          notes.summary,
          ...notes.keyTerms.map((keyTerm) => keyTerm.definition),
          ...notes.keyFacts,
          ...notes.misconceptions,
        ]
      : [],
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function createSubjectRanker(topics: readonly Topic[]): SubjectRanker {
  const entries = topics.flatMap((topic) => topic.subtopics.map((subtopic) => ({ subtopic, topic })));
  const index = new LexicalIndex(
    subtopicFields,
    entries.map(({ subtopic, topic }) => subtopicTexts(subtopic, topic)),
  );
  // What each subtopic scores against its own name: the scale of a text that names it outright.
  const nameScores = entries.map(
    ({ subtopic }, position) => index.score(queryTerms(subtopic.name))[position] ?? 0,
  );
  const fallbackScale = Math.max(1e-6, median(nameScores));
  const nameScale = nameScores.map((score) => (score > 0 ? score : fallbackScale));
  return {
    rank(text) {
      const scores = index.score(queryTerms(text));
      return entries.map(({ subtopic, topic }, position) => ({
        subtopic,
        topic,
        rawScore: scores[position] ?? 0,
        nameScale: nameScale[position] ?? fallbackScale,
      }));
    },
  };
}

export function toMatch(subtopic: Subtopic, topic: Topic, score: number): AlignMatch {
  return {
    subtopicId: subtopic.id,
    subtopicName: subtopic.name,
    topicId: topic.id,
    topicName: topic.name,
    score: roundScore(score),
  };
}

export interface OfflineAligner extends Aligner {
  /** The lexical ranker of one subject, or undefined for a subject not in the snapshot. */
  rankerFor(subjectId: string): SubjectRanker | undefined;
}

/**
 * Lexical aligner needing no outside service. Every subject's index is built at construction so a request
 * only analyses its own text. An unknown subject yields no matches; the caller reports it as not found.
 */
export function createOfflineAligner(snapshot: CatalogueSnapshot): OfflineAligner {
  // Built per subject on first use: building all of them up front was a large share of start-up time.
  const rankers = new Map<string, SubjectRanker>();
  const rankerFor = (subjectId: string): SubjectRanker | undefined => {
    let ranker = rankers.get(subjectId);
    if (ranker) return ranker;
    const subject = snapshot.subjectById.get(subjectId);
    if (!subject) return undefined;
    ranker = createSubjectRanker(subject.topics);
    rankers.set(subjectId, ranker);
    return ranker;
  };

  return {
    engine: "offline-bm25",
    rankerFor,
    async align(request: AlignRequest): Promise<AlignMatch[]> {
      const ranker = rankerFor(request.subjectId);
      const limit = Math.floor(request.limit);
      if (!ranker || !(limit > 0)) return [];
      const ranked = ranker.rank(request.text).filter((entry) => entry.rawScore > 0);
      let best: RankedSubtopic | undefined;
      for (const entry of ranked) if (!best || entry.rawScore > best.rawScore) best = entry;
      if (!best) return [];
      // Relative to the best match, scaled by how confident the best match itself is.
      const scale = lexicalConfidence(best) / best.rawScore;
      return ranked
        .map(({ subtopic, topic, rawScore }) => toMatch(subtopic, topic, rawScore * scale))
        .filter((match) => match.score > 0)
        .sort(compareMatches)
        .slice(0, limit);
    },
  };
}
