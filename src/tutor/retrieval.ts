import type { CatalogueSnapshot, Subject } from "../catalogue/model.ts";
import type { ChatMessage } from "./messages.ts";
import type { RetrievedNote, TutorSelection } from "./engine.ts";
import { studySkillNotes } from "./study-skills.ts";
import { contentStems, words } from "./text.ts";

/**
 * Lexical retrieval of knowledge notes: stemmed terms, field weights and inverse document frequency over
 * every subtopic that has notes plus the study-skills notes. No network, no randomness, fast enough to run
 * on every chat request.
 */

/** Fields where a match means the note is about the word, not merely mentions it. */
const strongFieldWeights = { name: 3, keyword: 3, keyTerm: 3, topic: 2 } as const;
const weakFieldWeights = {
  description: 1.5,
  summary: 1,
  definition: 1,
  fact: 1,
  misconception: 0.5,
  subject: 0.5,
} as const;
type FieldName = keyof typeof strongFieldWeights | keyof typeof weakFieldWeights;
const fieldWeights: Record<FieldName, number> = { ...strongFieldWeights, ...weakFieldWeights };
const strongFields = new Set<FieldName>(Object.keys(strongFieldWeights) as FieldName[]);

interface IndexedNote {
  note: Omit<RetrievedNote, "score">;
  /** Per stem: how strongly the note is about it (best field, plus a little for every further mention). */
  stemWeights: Map<string, { weight: number; strong: boolean }>;
  /** The note's title, as stems, for an exact-title bonus. */
  titleStems: string[];
  /** Multi-word keywords and terms, as stem sequences, for a phrase bonus. */
  phrases: string[][];
}

export interface NoteSearchOptions {
  /** Only notes of these subjects; study-skills notes are controlled separately. */
  subjectIds?: ReadonlySet<string>;
  includeCatalogue?: boolean;
  includeStudySkills?: boolean;
  limit?: number;
}

export interface NoteSearchHit {
  note: RetrievedNote;
  /**
   * Share (0–1) of the query's words, weighted by rarity, that the note matches: fully in its name, keywords,
   * key terms or topic, half in its body.
   */
  confidence: number;
}

interface QueryPart {
  text: string;
  weight: number;
}

export interface NoteRetriever {
  /** The notes a tutor should draw on for this conversation, best first; empty when nothing is relevant. */
  retrieve(input: {
    messages: readonly ChatMessage[];
    tutor: TutorSelection;
    limit?: number;
  }): RetrievedNote[];
  /** Free search used by the question writer to match a topic to the catalogue. */
  search(query: string, options?: NoteSearchOptions): NoteSearchHit[];
  /** Subjects a custom genie's free-text `subject` refers to (empty when it names none we know). */
  subjectsMatching(subjectText: string): Subject[];
}

/** Below this a note merely shares a common word with the question; calibrated on the sample catalogue. */
const minimumScore = 3;
const relativeCutoff = 0.4;
const retrieverCache = new WeakMap<CatalogueSnapshot, NoteRetriever>();

/** One retriever per snapshot; the index is built once and reused. */
export function createNoteRetriever(catalogue: CatalogueSnapshot): NoteRetriever {
  const cached = retrieverCache.get(catalogue);
  if (cached) return cached;
  // The index is built on first use rather than at start-up, which it used to slow by seconds.
  let built: NoteRetriever | undefined;
  const index = () => (built ??= buildRetriever(catalogue));
  const retriever: NoteRetriever = {
    retrieve: (input) => index().retrieve(input),
    search: (query, options) => index().search(query, options),
    subjectsMatching: (subjectText) => index().subjectsMatching(subjectText),
  };
  retrieverCache.set(catalogue, retriever);
  return retriever;
}

function buildRetriever(catalogue: CatalogueSnapshot): NoteRetriever {
  const index = buildIndex(catalogue);
  const documentFrequency = new Map<string, number>();
  for (const entry of index) {
    for (const item of entry.stemWeights.keys())
      documentFrequency.set(item, (documentFrequency.get(item) ?? 0) + 1);
  }
  const inverseFrequency = (item: string): number =>
    Math.log(1 + index.length / Math.max(0.5, documentFrequency.get(item) ?? 0.5));

  function rank(
    parts: readonly QueryPart[],
    accept: (entry: IndexedNote) => boolean,
    limit: number,
  ): NoteSearchHit[] {
    const queryWeights = new Map<string, number>();
    for (const part of parts) {
      for (const item of contentStems(part.text))
        queryWeights.set(item, Math.max(queryWeights.get(item) ?? 0, part.weight));
    }
    if (queryWeights.size === 0) return [];
    const primaryStems = new Set(
      parts.filter((part) => part.weight >= 1).flatMap((part) => contentStems(part.text)),
    );
    let primaryMass = 0;
    for (const item of primaryStems) primaryMass += inverseFrequency(item);

    const scored: { entry: IndexedNote; score: number; confidence: number }[] = [];
    for (const entry of index) {
      if (!accept(entry)) continue;
      let score = 0;
      let primaryMatchedMass = 0;
      for (const [item, queryWeight] of queryWeights) {
        const found = entry.stemWeights.get(item);
        if (!found) continue;
        score += queryWeight * inverseFrequency(item) * found.weight;
        // A word found only in the body of the notes counts half towards confidence.
        if (primaryStems.has(item)) primaryMatchedMass += inverseFrequency(item) * (found.strong ? 1 : 0.5);
      }
      // A question naming the note's whole title ("osmosis", "natural selection") is about that note.
      if (entry.titleStems.length > 0 && entry.titleStems.every((item) => primaryStems.has(item))) {
        score += entry.titleStems.reduce((sum, item) => sum + inverseFrequency(item), 0);
      }
      for (const phrase of entry.phrases) {
        if (phrase.every((item) => queryWeights.has(item))) score += phrase.length;
      }
      if (score < minimumScore) continue;
      scored.push({
        entry,
        score,
        confidence: primaryMass > 0 ? Math.min(1, primaryMatchedMass / primaryMass) : 0,
      });
    }
    scored.sort((a, b) => b.score - a.score || a.entry.note.id.localeCompare(b.entry.note.id));
    const top = scored[0]?.score ?? 0;
    return scored
      .filter((hit) => hit.score >= top * relativeCutoff)
      .slice(0, limit)
      .map(({ entry, score, confidence }) => ({
        note: { ...entry.note, score: round(score) },
        confidence: round(confidence),
      }));
  }

  function subjectsMatching(subjectText: string): Subject[] {
    const textStems = new Set(contentStems(subjectText));
    const lower = ` ${words(subjectText).join(" ")} `;
    const byName = catalogue.subjects.filter((subject) => {
      const nameStems = contentStems(subject.name);
      return nameStems.length > 0 && nameStems.every((item) => textStems.has(item));
    });
    const qualification = /\b(a level|alevel|as level)\b/.test(lower)
      ? "A-Level"
      : /\bgcse\b/.test(lower)
        ? "GCSE"
        : /\bbtec\b/.test(lower)
          ? "BTEC"
          : null;
    const narrowed = qualification
      ? byName.filter((subject) => subject.qualification === qualification)
      : byName;
    return narrowed.length > 0 ? narrowed : byName;
  }

  return {
    retrieve({ messages, tutor, limit = 3 }) {
      const parts = conversationQuery(messages);
      let accept: (entry: IndexedNote) => boolean;
      if (tutor.kind === "genie") {
        accept = (entry) => entry.note.subject?.id === tutor.subject.id;
      } else if (tutor.kind === "general") {
        accept = () => true;
      } else {
        const subjects = subjectsMatching(tutor.genie.subject);
        const ids = new Set(subjects.map((subject) => subject.id));
        // The custom genie's subject narrows the catalogue; a subject we don't hold leaves the whole catalogue open.
        accept = (entry) =>
          entry.note.source === "study-skills" || ids.size === 0 || ids.has(entry.note.subject?.id ?? "");
        parts.push({ text: tutor.genie.subject, weight: 0.3 });
      }
      return rank(parts, accept, limit).map((hit) => hit.note);
    },
    search(query, options = {}) {
      const { subjectIds, includeCatalogue = true, includeStudySkills = false, limit = 5 } = options;
      return rank(
        [{ text: query, weight: 1 }],
        (entry) =>
          entry.note.source === "study-skills"
            ? includeStudySkills
            : includeCatalogue && (!subjectIds || subjectIds.has(entry.note.subject?.id ?? "")),
        limit,
      );
    },
    subjectsMatching,
  };
}

/**
 * The latest question counts fully; earlier student turns and the tutor's last turn keep a follow-up such as
 * "why?" or an answer to a Socratic question on the same notes.
 */
function conversationQuery(messages: readonly ChatMessage[]): QueryPart[] {
  const parts: QueryPart[] = [];
  let lastUserSeen = false;
  let assistantSeen = false;
  let earlierWeight = 0.5;
  for (let position = messages.length - 1; position >= 0; position -= 1) {
    const message = messages[position]!;
    if (message.role === "user") {
      if (!lastUserSeen) {
        parts.push({ text: message.content, weight: 1 });
        lastUserSeen = true;
      } else if (earlierWeight > 0.1) {
        parts.push({ text: message.content, weight: earlierWeight });
        earlierWeight /= 2;
      }
    } else if (!assistantSeen) {
      parts.push({ text: message.content, weight: 0.6 });
      assistantSeen = true;
    }
  }
  return parts;
}

function buildIndex(catalogue: CatalogueSnapshot): IndexedNote[] {
  const index: IndexedNote[] = [];
  for (const subject of catalogue.subjects) {
    for (const topic of subject.topics) {
      for (const subtopic of topic.subtopics) {
        if (!subtopic.notes) continue;
        const notes = subtopic.notes;
        const fields: [FieldName, string][] = [
          ["name", subtopic.name],
          ...subtopic.keywords.map((keyword): [FieldName, string] => ["keyword", keyword]),
          ...notes.keyTerms.map((term): [FieldName, string] => ["keyTerm", term.term]),
          ["topic", topic.name],
          ["description", subtopic.description],
          ["summary", notes.summary],
          ...notes.keyTerms.map((term): [FieldName, string] => ["definition", term.definition]),
          ...notes.keyFacts.map((fact): [FieldName, string] => ["fact", fact]),
          ...notes.misconceptions.map((item): [FieldName, string] => ["misconception", item]),
          ["subject", subject.name],
        ];
        index.push({
          note: {
            id: subtopic.id,
            source: "catalogue",
            title: subtopic.name,
            topicName: topic.name,
            subject: {
              id: subject.id,
              name: subject.name,
              qualification: subject.qualification,
              examBoard: subject.examBoard,
            },
            notes,
          },
          stemWeights: weighStems(fields),
          titleStems: [...new Set(contentStems(subtopic.name))],
          phrases: phrasesOf([...subtopic.keywords, ...notes.keyTerms.map((term) => term.term)]),
        });
      }
    }
  }
  for (const skill of studySkillNotes) {
    const fields: [FieldName, string][] = [
      ["name", skill.title],
      ...skill.keywords.map((keyword): [FieldName, string] => ["keyword", keyword]),
      ...skill.notes.keyTerms.map((term): [FieldName, string] => ["keyTerm", term.term]),
      ["summary", skill.notes.summary],
      ...skill.notes.keyTerms.map((term): [FieldName, string] => ["definition", term.definition]),
      ...skill.notes.keyFacts.map((fact): [FieldName, string] => ["fact", fact]),
      ...skill.notes.misconceptions.map((item): [FieldName, string] => ["misconception", item]),
    ];
    index.push({
      note: {
        id: `study-skills.${skill.slug}`,
        source: "study-skills",
        title: skill.title,
        topicName: "Study skills",
        subject: null,
        notes: skill.notes,
      },
      stemWeights: weighStems(fields),
      titleStems: [...new Set(contentStems(skill.title))],
      phrases: phrasesOf([...skill.keywords, ...skill.notes.keyTerms.map((term) => term.term)]),
    });
  }
  return index;
}

/** The best field's weight plus a tenth of every further mention, capped at double: repetition adds little. */
function weighStems(
  fields: readonly [FieldName, string][],
): Map<string, { weight: number; strong: boolean }> {
  const mentions = new Map<string, number[]>();
  const strong = new Set<string>();
  for (const [field, text] of fields) {
    for (const item of new Set(contentStems(text))) {
      mentions.set(item, [...(mentions.get(item) ?? []), fieldWeights[field]]);
      if (strongFields.has(field)) strong.add(item);
    }
  }
  const weights = new Map<string, { weight: number; strong: boolean }>();
  for (const [item, found] of mentions) {
    const best = Math.max(...found);
    const rest = found.reduce((sum, weight) => sum + weight, 0) - best;
    weights.set(item, { weight: Math.min(best * 2, best + rest / 10), strong: strong.has(item) });
  }
  return weights;
}

function phrasesOf(texts: readonly string[]): string[][] {
  return texts.map((text) => contentStems(text)).filter((phrase) => phrase.length >= 2);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
