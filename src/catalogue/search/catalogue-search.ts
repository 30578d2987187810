import MiniSearch, { type SearchOptions } from "minisearch";
import type { CatalogueSnapshot, Subject } from "../model.ts";
import type { ExamBoardId, Qualification } from "../source-schema.ts";
import { findSynonyms } from "./school-vocabulary.ts";
import { stem, stems, stopWords, words } from "./text-analysis.ts";

export const searchResultTypes = ["subject", "topic", "subtopic"] as const;
export type SearchResultType = (typeof searchResultTypes)[number];

export interface CatalogueSearchQuery {
  q: string;
  qualification?: Qualification;
  examBoardId?: ExamBoardId;
  subjectId?: string;
  type?: SearchResultType;
  limit: number;
}

export interface CatalogueSearchResult {
  type: SearchResultType;
  id: string;
  name: string;
  /** Relevance in [0, 1], 4 decimal places; 1 is the best match for a query whose every word matched. */
  score: number;
  subject: { id: string; name: string; qualification: Qualification; examBoard: string };
  topic: { id: string; name: string } | null;
}

export interface CatalogueSearch {
  search(query: CatalogueSearchQuery): CatalogueSearchResult[];
}

/** One searchable subject, topic or subtopic, with what a result needs precomputed. */
interface SearchEntry {
  type: SearchResultType;
  id: string;
  name: string;
  /** The name's stems joined, to recognise a query that names the entry exactly. */
  nameKey: string;
  /** Each keyword's stems joined, to recognise a query that is exactly one of the entry's keywords. */
  keywordKeys: ReadonlySet<string>;
  subject: Subject;
  topic: { id: string; name: string } | null;
  result: Omit<CatalogueSearchResult, "score">;
}

interface IndexedDocument {
  key: number;
  name: string;
  keywords: string;
  description: string;
  notes: string;
  context: string;
}

/** Names outrank keywords, keywords outrank prose; context (topic and subject names) only breaks near-ties. */
const fieldBoosts = { name: 6, keywords: 3, description: 1.5, notes: 0.6, context: 0.6 };
const prefixFieldBoosts = { name: 6, keywords: 3 };
/** Whole subjects and topics are broader answers, so a name match on them edges ahead of a subtopic's. */
const typeBoost: Record<SearchResultType, number> = { subject: 1.3, topic: 1.15, subtopic: 1 };
const exactNameBoost = 1.6;
const exactKeywordBoost = 1.3;
/** How much a synonym's match counts against the word the teacher actually typed. */
const synonymWeight = 0.6;
const maxQueryWords = 12;

const fullFields = Object.keys(fieldBoosts);
const prefixFields = Object.keys(prefixFieldBoosts);

function maxFuzzyDistance(term: string): number {
  if (term.length < 4) return 0;
  return term.length < 7 ? 1 : 2;
}

function buildEntries(snapshot: CatalogueSnapshot): { entries: SearchEntry[]; documents: IndexedDocument[] } {
  const entries: SearchEntry[] = [];
  const documents: IndexedDocument[] = [];
  const add = (
    entry: Omit<SearchEntry, "nameKey" | "keywordKeys" | "result">,
    text: Omit<IndexedDocument, "key" | "name">,
    keywords: readonly string[] = [],
  ) => {
    const { subject } = entry;
    const result = {
      type: entry.type,
      id: entry.id,
      name: entry.name,
      subject: {
        id: subject.id,
        name: subject.name,
        qualification: subject.qualification,
        examBoard: subject.examBoard,
      },
      topic: entry.topic,
    };
    documents.push({ key: entries.length, name: entry.name, ...text });
    entries.push({
      ...entry,
      nameKey: stems(entry.name).join(" "),
      keywordKeys: new Set(keywords.map((keyword) => stems(keyword).join(" "))),
      result,
    });
  };

  for (const subject of snapshot.subjects) {
    add(
      { type: "subject", id: subject.id, name: subject.name, subject, topic: null },
      {
        keywords: [subject.qualification, subject.examBoard, subject.examBoardId, subject.specificationCode].join(
          " ",
        ),
        description: subject.topics.map((topic) => topic.name).join(". "),
        notes: "",
        context: "",
      },
    );
    for (const topic of subject.topics) {
      const topicRef = { id: topic.id, name: topic.name };
      add(
        { type: "topic", id: topic.id, name: topic.name, subject, topic: null },
        {
          keywords: topic.subtopics.map((subtopic) => subtopic.name).join(". "),
          description: "",
          notes: "",
          context: subject.name,
        },
      );
      for (const subtopic of topic.subtopics) {
        const notes = subtopic.notes;
        add(
          { type: "subtopic", id: subtopic.id, name: subtopic.name, subject, topic: topicRef },
          {
            keywords: [...subtopic.keywords, ...(notes?.keyTerms.map((keyTerm) => keyTerm.term) ?? [])].join(". "),
            description: subtopic.description,
            notes: notes
              ? [
                  // Facts and misconceptions are left out: long, and a misconception names the wrong idea.
                  notes.summary,
                  ...notes.keyTerms.map((keyTerm) => keyTerm.definition),
                ].join(" ")
              : "",
            context: `${topic.name}. ${subject.name}`,
          },
          subtopic.keywords,
        );
      }
    }
  }
  return { entries, documents };
}

/** Per query word: the words found for it, keyed by entry index. */
type WordScores = Map<number, number>;

function addMax(into: WordScores, key: number, score: number): void {
  const current = into.get(key);
  if (current === undefined || score > current) into.set(key, score);
}

/**
 * Builds the catalogue search index once; `search` is then a pure, synchronous lookup on the hot path.
 * Two indexes: stems of every field (exact and typo-tolerant matching), and the raw words of names and keywords
 * so the word being typed matches by prefix even where stemming would cut it differently ("respirat…").
 */
export function createCatalogueSearch(snapshot: CatalogueSnapshot): CatalogueSearch {
  const { entries, documents } = buildEntries(snapshot);

  const fullIndex = new MiniSearch<IndexedDocument>({
    idField: "key",
    fields: fullFields,
    tokenize: words,
    processTerm: (term) => (stopWords.has(term) ? null : stem(term)),
    searchOptions: { tokenize: (text) => [text], processTerm: (term) => term },
  });
  fullIndex.addAll(documents);
  const vocabulary = new Map<string, number>();
  for (const document of documents) {
    for (const field of fullFields) {
      for (const word of words(document[field as keyof Omit<IndexedDocument, "key">])) {
        if (!stopWords.has(word)) {
          const term = stem(word);
          vocabulary.set(term, (vocabulary.get(term) ?? 0) + 1);
        }
      }
    }
  }

  const prefixIndex = new MiniSearch<IndexedDocument>({
    idField: "key",
    fields: prefixFields,
    tokenize: words,
    processTerm: (term) => (stopWords.has(term) ? null : term),
    searchOptions: { tokenize: (text) => [text], processTerm: (term) => term },
  });
  prefixIndex.addAll(documents);

  const unfilteredBoosts = Float64Array.from(entries, (entry) => typeBoost[entry.type]);

  /** Per entry: its type boost, or 0 when a filter excludes it (MiniSearch skips documents boosted to 0). */
  function documentBoosts(query: CatalogueSearchQuery): Float64Array {
    const { type, subjectId, qualification, examBoardId } = query;
    if (!type && !subjectId && !qualification && !examBoardId) return unfilteredBoosts;
    return Float64Array.from(entries, (entry) =>
      (type && entry.type !== type) ||
      (subjectId && entry.subject.id !== subjectId) ||
      (qualification && entry.subject.qualification !== qualification) ||
      (examBoardId && entry.subject.examBoardId !== examBoardId)
        ? 0
        : typeBoost[entry.type],
    );
  }

  function search(query: CatalogueSearchQuery): CatalogueSearchResult[] {
    const limit = Math.floor(query.limit);
    if (!(limit > 0)) return [];

    const allWords = words(query.q);
    const meaningful = allWords.filter((word) => !stopWords.has(word));
    // A query of only function words ("the of") still searches for them rather than answering nothing.
    const queryWords = (meaningful.length > 0 ? meaningful : allWords).slice(0, maxQueryWords);
    if (queryWords.length === 0) return [];
    const queryStems = queryWords.map(stem);
    // The last word is still being typed unless the query ends in a space or punctuation.
    const lastIsPartial = /[\p{L}\p{N}]$/u.test(query.q);

    const boosts = documentBoosts(query);
    const boostDocument = (key: number): number => boosts[key] ?? 0;
    const options = (fields: string[], extra: SearchOptions, boost: Record<string, number>): SearchOptions => ({
      fields,
      boost,
      boostDocument,
      ...extra,
    });

    const collect = (scores: WordScores, hits: ReturnType<MiniSearch["search"]>): number => {
      for (const hit of hits) addMax(scores, hit.id as number, hit.score);
      return hits.length;
    };
    const perWord: WordScores[] = queryStems.map((term, index) => {
      const scores: WordScores = new Map();
      const word = queryWords[index]!;
      const known = vocabulary.has(term);
      let found = collect(scores, known ? fullIndex.search(term, options(fullFields, {}, fieldBoosts)) : []);
      if (index === queryStems.length - 1 && lastIsPartial && word.length >= 3) {
        found += collect(scores, prefixIndex.search(word, options(prefixFields, { prefix: true }, prefixFieldBoosts)));
      }
      // Typo tolerance only for a word the catalogue does not contain and that no prefix explains, trying one
      // edit before two: edit-distance search is the costliest step and a known word is taken as meant.
      if (!known && found === 0) {
        for (let distance = 1; distance <= maxFuzzyDistance(term) && found === 0; distance += 1) {
          found = collect(scores, fullIndex.search(term, options(fullFields, { fuzzy: distance }, fieldBoosts)));
        }
      }
      return scores;
    });

    // A synonym phrase must match in full, so its rarest word is searched first and the rest only within the
    // entries that word found: common words ("solve", "equation") then cost almost nothing.
    applySynonyms(queryStems, perWord, (alternative) => {
      const ordered = [...alternative].sort((a, b) => (vocabulary.get(a) ?? 0) - (vocabulary.get(b) ?? 0));
      let found: WordScores | undefined;
      for (const term of ordered) {
        if (!vocabulary.has(term)) return new Map();
        const within = found;
        const next: WordScores = new Map();
        const boost = within
          ? (key: number) => (within.has(key) ? (boosts[key] ?? 0) : 0)
          : (key: number) => boosts[key] ?? 0;
        for (const hit of fullIndex.search(term, { fields: fullFields, boost: fieldBoosts, boostDocument: boost })) {
          next.set(hit.id as number, (within?.get(hit.id as number) ?? 0) + hit.score);
        }
        if (next.size === 0) return next;
        found = next;
      }
      return found ?? new Map();
    });

    const queryKey = queryStems.join(" ");
    const candidates = new Set<number>();
    for (const scores of perWord) for (const key of scores.keys()) candidates.add(key);
    if (candidates.size === 0) return [];
    const ranked: { key: number; rank: number; coverage: number; score: number }[] = [];
    for (const key of candidates) {
      let sum = 0;
      let matched = 0;
      for (const scores of perWord) {
        const score = scores.get(key);
        if (score !== undefined) {
          sum += score;
          matched += 1;
        }
      }
      const coverage = matched / perWord.length;
      // Matching every word the teacher typed matters more than matching one word many times.
      let rank = sum * coverage * coverage;
      const entry = entries[key]!;
      if (entry.nameKey === queryKey) rank *= exactNameBoost;
      else if (entry.keywordKeys.has(queryKey)) rank *= exactKeywordBoost;
      ranked.push({ key, rank, coverage, score: 0 });
    }

    // The best result scores the share of query words it matched; the rest score relative to it.
    let best = ranked[0]!;
    for (const candidate of ranked) if (candidate.rank > best.rank) best = candidate;
    const scale = best.coverage / best.rank;
    for (const candidate of ranked) {
      candidate.score = Math.round(Math.min(1, candidate.rank * scale) * 10_000) / 10_000;
    }
    ranked.sort((a, b) => {
      if (b.score !== a.score) return b.score - a.score;
      const idA = entries[a.key]!.id;
      const idB = entries[b.key]!.id;
      return idA < idB ? -1 : idA > idB ? 1 : 0;
    });
    return ranked.slice(0, limit).map(({ key, score }) => ({ ...entries[key]!.result, score }));
  }

  return { search };
}

/**
 * Lets a synonym stand in for the words typed: where an entry matches every word of an alternative phrase
 * better than it matches the typed phrase, the alternative's (reduced) score replaces the typed words' scores.
 */
function applySynonyms(
  queryStems: readonly string[],
  perWord: WordScores[],
  matchAll: (alternative: readonly string[]) => WordScores,
): void {
  for (const expansion of findSynonyms(queryStems)) {
    const start = findSpan(queryStems, expansion.matched);
    if (start < 0) continue;
    const span = perWord.slice(start, start + expansion.matched.length);
    for (const alternative of expansion.alternatives) {
      for (const [key, total] of matchAll(alternative)) {
        const share = (total * synonymWeight) / span.length;
        for (const scores of span) addMax(scores, key, share);
      }
    }
  }
}

function findSpan(sequence: readonly string[], phrase: readonly string[]): number {
  for (let start = 0; start + phrase.length <= sequence.length; start += 1) {
    if (phrase.every((part, offset) => sequence[start + offset] === part)) return start;
  }
  return -1;
}
