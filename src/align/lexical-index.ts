import { findSynonyms } from "../catalogue/search/school-vocabulary.ts";
import { stem, stopWords, words } from "../catalogue/search/text-analysis.ts";

/**
 * A BM25F index over a handful of weighted text fields, with stemmed unigrams and adjacent-word bigrams
 * ("cell_cycl") so a phrase scores above its words scattered through a text. All document-side arithmetic is
 * done at construction: each posting holds the finished per-term score, and a query is only lookups and sums.
 */

export interface FieldSpec {
  /** How much one occurrence in this field counts against one in a plain field. */
  weight: number;
  /** Length normalisation: 0 ignores field length, 1 fully normalises (BM25 "b"). */
  lengthNormalisation: number;
}

/** Text of one document per field; each string is a separate phrase (no bigram crosses two strings). */
export type FieldTexts<Field extends string> = Record<Field, readonly string[]>;

export interface WeightedTerm {
  term: string;
  weight: number;
}

interface Posting {
  document: number;
  score: number;
}

const k1 = 1.2;
/** Bigrams are rarer and more specific than single words; they add to, not replace, their words. */
const bigramWeight = 0.6;
const synonymWeight = 0.5;
/** A query word absent from the index may match a near form ("volcano" for "volcan"), counted for less. */
const variantWeight = 0.6;
const variantMinLength = 5;

/** The word itself and the word with its last one or two letters removed, as long as enough is left. */
function truncations(term: string): string[] {
  const forms = [term];
  for (let drop = 1; drop <= 2 && term.length - drop >= variantMinLength; drop += 1) {
    forms.push(term.slice(0, -drop));
  }
  return forms;
}

/** Words of teaching craft that say nothing about the content of a lesson plan or scheme of work. */
export const teachingNoiseWords: ReadonlySet<string> = new Set(
  (
    "lesson lessons objective objectives outcome outcomes aim aims starter starters plenary plenaries main " +
    "activity activities task tasks homework worksheet worksheets recap review learners " +
    "learner student students pupil pupils class classes teacher teachers minute minutes mins min week " +
    "weeks year y7 y8 y9 y10 y11 y12 y13 ks3 ks4 ks5 gcse success criteria able will must know " +
    "understand understanding explain describe identify recall define discuss evaluate analyse compare " +
    "apply use using used including key introduce introduction today think pair share quiz question questions " +
    "exam practice past mark marks scheme slide slides video discussion extension " +
    "challenge support assessment assess feedback brief due submit write read " +
    "page pages textbook book example examples also show shows get make made need different " +
    "check end start begin should could would whole ask answer answers"
  ).split(" "),
);

/** Classroom phrases whose words are content elsewhere ("social learning theory"), removed as a whole. */
const teachingNoisePhrases =
  /\b(?:learning (?:objectives?|outcomes?|intentions?|aims?|questions?)|success criteria|by the end of (?:the|this) (?:lesson|unit|topic)|(?:all|most|some) (?:students|pupils) (?:will|should|must|can)|(?:students|pupils) will (?:be able to|learn)|key stage \d)\b/gi;

/** Phrases of a text: split at sentence and line ends so bigrams stay within one thought. */
function phrases(text: string): string[] {
  return text.split(/[.;:!?\n\r•·|()[\]{}]+|\s[-–—]\s/);
}

/** Stems of a phrase, with synonym-phrase detection run before noise words are removed. */
function phraseStems(phrase: string): { stems: string[]; sequence: string[] } {
  const sequence: string[] = [];
  const content: string[] = [];
  for (const word of words(phrase)) {
    if (stopWords.has(word)) continue;
    const stemmed = stem(word);
    sequence.push(stemmed);
    if (!teachingNoiseWords.has(word) && !/^\d+$/.test(word)) content.push(stemmed);
  }
  return { stems: content, sequence };
}

function bigram(first: string, second: string): string {
  return `${first}_${second}`;
}

/** Terms of one document field with their frequencies: unigrams and bigrams. */
function fieldTerms(texts: readonly string[]): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  let length = 0;
  const add = (term: string, amount: number) => counts.set(term, (counts.get(term) ?? 0) + amount);
  for (const text of texts) {
    for (const phrase of phrases(text)) {
      const { stems } = phraseStems(phrase);
      length += stems.length;
      stems.forEach((term, index) => {
        add(term, 1);
        const next = stems[index + 1];
        if (next !== undefined) add(bigram(term, next), 1);
      });
    }
  }
  return { counts, length };
}

/**
 * Weighted query terms of a free text. Repetition counts, but with diminishing returns, so a long lesson
 * plan's focus shows without one word drowning the rest. Synonyms of phrases found add their alternatives.
 */
export function queryTerms(text: string): WeightedTerm[] {
  // Replaced by a phrase break so no bigram spans the removed words.
  const content = text.replace(teachingNoisePhrases, ". ");
  const counts = new Map<string, number>();
  const add = (term: string, amount: number) => counts.set(term, (counts.get(term) ?? 0) + amount);
  const sequence: string[] = [];
  for (const phrase of phrases(content)) {
    const analysed = phraseStems(phrase);
    analysed.stems.forEach((term, index) => {
      add(term, 1);
      const next = analysed.stems[index + 1];
      if (next !== undefined) add(bigram(term, next), bigramWeight);
    });
    sequence.push(...analysed.sequence, "");
  }

  const weights = new Map<string, number>();
  for (const [term, count] of counts) weights.set(term, 1 + Math.log(Math.max(1, count)));
  for (const expansion of findSynonyms(sequence)) {
    for (const alternative of expansion.alternatives) {
      alternative.forEach((term, index) => {
        if (!weights.has(term)) weights.set(term, synonymWeight);
        const next = alternative[index + 1];
        if (next !== undefined && !weights.has(bigram(term, next))) {
          weights.set(bigram(term, next), synonymWeight * bigramWeight);
        }
      });
    }
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}

export class LexicalIndex<Field extends string> {
  readonly documentCount: number;
  private readonly postings = new Map<string, Posting[]>();
  /** Truncated form → single-word index terms having it, for near-form matching of unknown words. */
  private readonly variants = new Map<string, string[]>();

  constructor(fields: Record<Field, FieldSpec>, documents: readonly FieldTexts<Field>[]) {
    this.documentCount = documents.length;
    const fieldNames = Object.keys(fields) as Field[];
    const analysed = documents.map((document) =>
      Object.fromEntries(fieldNames.map((field) => [field, fieldTerms(document[field])])),
    ) as Record<Field, ReturnType<typeof fieldTerms>>[];

    const averageLength = {} as Record<Field, number>;
    for (const field of fieldNames) {
      const total = analysed.reduce((sum, document) => sum + document[field].length, 0);
      averageLength[field] = Math.max(1, total / Math.max(1, documents.length));
    }

    // BM25F: weight and length-normalise each field's frequency, sum, then saturate once per term.
    const pseudoFrequencies = new Map<string, Map<number, number>>();
    analysed.forEach((document, documentIndex) => {
      for (const field of fieldNames) {
        const { counts, length } = document[field];
        const spec = fields[field];
        const norm =
          1 - spec.lengthNormalisation + (spec.lengthNormalisation * length) / averageLength[field];
        for (const [term, count] of counts) {
          const byDocument = pseudoFrequencies.get(term) ?? new Map<number, number>();
          byDocument.set(documentIndex, (byDocument.get(documentIndex) ?? 0) + (spec.weight * count) / norm);
          pseudoFrequencies.set(term, byDocument);
        }
      }
    });

    const total = documents.length;
    for (const [term, byDocument] of pseudoFrequencies) {
      const idf = Math.log(1 + (total - byDocument.size + 0.5) / (byDocument.size + 0.5));
      const list: Posting[] = [];
      for (const [document, frequency] of byDocument) {
        list.push({ document, score: (idf * frequency * (k1 + 1)) / (k1 + frequency) });
      }
      this.postings.set(term, list);
      if (!term.includes("_") && term.length >= variantMinLength) {
        for (const form of truncations(term)) {
          const terms = this.variants.get(form) ?? [];
          terms.push(term);
          this.variants.set(form, terms);
        }
      }
    }
  }

  /** Index terms that share a stem with an unknown word once a letter or two is trimmed from either. */
  private nearForms(term: string): string[] {
    if (term.includes("_") || term.length < variantMinLength) return [];
    const found = new Set<string>();
    for (const form of truncations(term)) {
      for (const variant of this.variants.get(form) ?? []) found.add(variant);
    }
    return [...found];
  }

  /** Raw BM25F score per document (0 where nothing matched). */
  score(terms: readonly WeightedTerm[]): Float64Array {
    const scores = new Float64Array(this.documentCount);
    const add = (list: readonly Posting[], weight: number) => {
      for (const posting of list) {
        scores[posting.document] = (scores[posting.document] ?? 0) + weight * posting.score;
      }
    };
    for (const { term, weight } of terms) {
      const list = this.postings.get(term);
      if (list) {
        add(list, weight);
        continue;
      }
      const nearForms = this.nearForms(term);
      for (const variant of nearForms) {
        add(this.postings.get(variant) ?? [], (weight * variantWeight) / nearForms.length);
      }
    }
    return scores;
  }
}
