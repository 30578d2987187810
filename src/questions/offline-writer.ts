import type { CatalogueSnapshot, Subject, Subtopic } from "../catalogue/model.ts";
import type { KnowledgeNotes } from "../catalogue/source-schema.ts";
import {
  asSentence,
  contentStems,
  firstSentence,
  hashSeed,
  lowerFirst,
  normaliseForComparison,
  seededRandom,
  seededShuffle,
} from "../tutor/text.ts";
import type { QuestionSetRequest, QuestionSetResult, QuestionWriter } from "./model.ts";
import { splitQuestionCount } from "./model.ts";
import { matchTopic } from "./topic-match.ts";
import { finaliseQuestionSet, type DraftMultipleChoice, type DraftWritten } from "./validate.ts";

/**
 * Writes questions from the catalogue's knowledge notes with fixed templates: definitions, completions, a
 * describe question, misconception corrections and comparisons; MCQs take distractors from misconceptions and
 * from the terms of neighbouring subtopics. Deterministic: the same request always gives the same set.
 */

export const offlineQuestionModelName = "syllabi-offline-1";

interface Candidate<T> {
  draft: T;
  /** What the question tests; two questions on the same focus are avoided while alternatives remain. */
  focus: string;
}

interface NotedSubtopic {
  subtopic: Subtopic;
  notes: KnowledgeNotes;
}

export function createOfflineQuestionWriter(options: { catalogue: CatalogueSnapshot }): QuestionWriter {
  const { catalogue } = options;
  return {
    model: offlineQuestionModelName,
    async generate(request: QuestionSetRequest, signal: AbortSignal): Promise<QuestionSetResult> {
      signal.throwIfAborted();
      const resolved =
        request.source.kind === "subtopic"
          ? { subject: request.source.subject, subtopic: request.source.subtopic }
          : matchTopic(catalogue, request.source);
      // Without notes (an unmapped specification) there is nothing to write mark schemes from.
      if (!resolved || !resolved.subtopic.notes) return { ok: false, reason: "topic_not_covered" };
      return writeSet(catalogue, resolved.subject, resolved.subtopic, request);
    },
  };
}

function writeSet(
  catalogue: CatalogueSnapshot,
  subject: Subject,
  subtopic: Subtopic,
  request: QuestionSetRequest,
): QuestionSetResult {
  const plan = splitQuestionCount(request.types, request.count);
  const seedText = `${subtopic.id}|${plan.map((entry) => `${entry.type}:${entry.count}`).join(",")}`;
  const pools = nearbySubtopics(catalogue, subject, subtopic);
  // For a free topic, the subtopic's terms that the caller named come first ("enzymes" → Enzyme before Tissue).
  if (request.source.kind === "topic" && pools[0]) pools[0] = focusOn(pools[0], request.source.topic);
  const distractorTerms = pools.flatMap((entry) => entry.notes.keyTerms);

  const written = pools.flatMap((entry) => interleave(writtenCandidates(entry)));
  const multipleChoice = pools.flatMap((entry, index) =>
    interleave(multipleChoiceCandidates(entry, distractorTerms, pools.slice(index + 1, index + 4), seedText)),
  );

  const usedQuestions = new Set<string>();
  const usedFocus = new Set<string>();
  const drafts: { written: DraftWritten[]; multipleChoice: DraftMultipleChoice[] } = {
    written: [],
    multipleChoice: [],
  };
  for (const { type, count } of plan) {
    const chosen =
      type === "written"
        ? pick(written, count, usedQuestions, usedFocus)
        : pick(multipleChoice, count, usedQuestions, usedFocus);
    if (type === "written") drafts.written.push(...(chosen as DraftWritten[]));
    else drafts.multipleChoice.push(...(chosen as DraftMultipleChoice[]));
  }
  // The catalogue may hold fewer distinct questions than asked for; the set is then shorter, never repeated.
  const achieved = plan.map(({ type, count }) => ({
    type,
    count: Math.min(count, type === "written" ? drafts.written.length : drafts.multipleChoice.length),
  }));
  const finished = finaliseQuestionSet(drafts, achieved);
  if (!finished.ok)
    throw new Error(`offline question writer produced an invalid set: ${finished.problems.join("; ")}`);
  return {
    ok: true,
    topic: subtopic.name,
    subject: subject.name,
    subjectId: subject.id,
    subtopicId: subtopic.id,
    questions: finished.questions,
  };
}

function focusOn(entry: NotedSubtopic, topic: string): NotedSubtopic {
  const topicStems = new Set(contentStems(topic));
  const relevance = (text: string) => contentStems(text).filter((item) => topicStems.has(item)).length;
  const keyTerms = [...entry.notes.keyTerms].sort((a, b) => relevance(b.term) - relevance(a.term));
  const keyFacts = [...entry.notes.keyFacts].sort((a, b) => relevance(b) - relevance(a));
  return { subtopic: entry.subtopic, notes: { ...entry.notes, keyTerms, keyFacts } };
}

/** The subtopic first, then its siblings nearest first, then the rest of the subject by topic order. */
function nearbySubtopics(
  catalogue: CatalogueSnapshot,
  subject: Subject,
  subtopic: Subtopic,
): NotedSubtopic[] {
  const topic = catalogue.topicById.get(subtopic.topicId);
  const siblings = [...(topic?.subtopics ?? [])]
    .filter((item) => item.id !== subtopic.id)
    .sort(
      (a, b) => Math.abs(a.order - subtopic.order) - Math.abs(b.order - subtopic.order) || a.order - b.order,
    );
  const others = subject.topics
    .filter((item) => item.id !== subtopic.topicId)
    .sort(
      (a, b) =>
        Math.abs(a.order - (topic?.order ?? 0)) - Math.abs(b.order - (topic?.order ?? 0)) ||
        a.order - b.order,
    )
    .flatMap((item) => item.subtopics);
  return [subtopic, ...siblings, ...others].flatMap((item) =>
    item.notes ? [{ subtopic: item, notes: item.notes }] : [],
  );
}

function pick<T extends { question: string }>(
  candidates: readonly Candidate<T>[],
  count: number,
  usedQuestions: Set<string>,
  usedFocus: Set<string>,
): T[] {
  const chosen: T[] = [];
  for (const allowRepeatedFocus of [false, true]) {
    for (const candidate of candidates) {
      if (chosen.length >= count) return chosen;
      const key = normaliseForComparison(candidate.draft.question);
      if (usedQuestions.has(key) || (!allowRepeatedFocus && usedFocus.has(candidate.focus))) continue;
      usedQuestions.add(key);
      usedFocus.add(candidate.focus);
      chosen.push(candidate.draft);
    }
  }
  return chosen;
}

/** Round-robin across the template kinds so a set mixes question styles before repeating one. */
function interleave<T>(groups: readonly (readonly T[])[]): T[] {
  const result: T[] = [];
  const longest = Math.max(0, ...groups.map((group) => group.length));
  for (let index = 0; index < longest; index += 1)
    for (const group of groups) if (group[index]) result.push(group[index]!);
  return result;
}

function writtenCandidates({ subtopic, notes }: NotedSubtopic): Candidate<DraftWritten>[][] {
  const definitions = notes.keyTerms.map((term): Candidate<DraftWritten> => {
    const fact = notes.keyFacts.find((item) => containsTerm(item, term.term));
    if (fact) {
      return {
        focus: `term:${term.term}`,
        draft: {
          question: `Explain what is meant by the term ${lowerFirst(term.term)}, and give one further fact about it.`,
          marks: 2,
          markScheme: "1 mark for a correct definition and 1 mark for a correct further fact.",
          markSchemePoints: [asSentence(term.definition), asSentence(fact)],
        },
      };
    }
    return {
      focus: `term:${term.term}`,
      draft: {
        question: `What is meant by the term ${lowerFirst(term.term)}?`,
        marks: 1,
        markScheme: "1 mark for a definition with this meaning.",
        markSchemePoints: [asSentence(term.definition)],
      },
    };
  });

  const completions = clozeItems(notes).map(({ sentence, term }): Candidate<DraftWritten> => ({
    focus: `cloze:${sentence}`,
    draft: {
      question: `Complete the sentence with the missing term: ${sentence}`,
      marks: 1,
      markScheme: `1 mark for the missing term: ${term}.`,
      markSchemePoints: [term],
    },
  }));

  const describeMarks = Math.min(4, notes.keyFacts.length);
  const describe: Candidate<DraftWritten>[] = [
    {
      focus: `describe:${subtopic.id}`,
      draft: {
        question: `Describe the main ideas of ${lowerFirst(subtopic.name)}.`,
        marks: describeMarks,
        markScheme: `1 mark for each correct point, up to ${describeMarks} marks. Creditworthy points include those listed.`,
        markSchemePoints: notes.keyFacts.map(asSentence),
      },
    },
  ];

  const corrections = notes.misconceptions.flatMap((item): Candidate<DraftWritten>[] => {
    const claim = falseClaimOf(item);
    if (!claim) return [];
    return [
      {
        focus: `misconception:${item}`,
        draft: {
          question: `A student says: "${asSentence(claim.claim)}" Explain why the student is wrong.`,
          marks: 2,
          markScheme: "1 mark for saying the statement is incorrect and 1 mark for the correct explanation.",
          markSchemePoints: [
            "States that the student's statement is incorrect.",
            asSentence(claim.correction),
          ],
        },
      },
    ];
  });

  const comparisons: Candidate<DraftWritten>[] = [];
  for (let index = 0; index + 1 < notes.keyTerms.length; index += 2) {
    const first = notes.keyTerms[index]!;
    const second = notes.keyTerms[index + 1]!;
    comparisons.push({
      focus: `compare:${first.term}|${second.term}`,
      draft: {
        question: `Explain the difference between ${lowerFirst(first.term)} and ${lowerFirst(second.term)}.`,
        marks: 2,
        markScheme: "1 mark for each term correctly described.",
        markSchemePoints: [
          `${first.term}: ${asSentence(lowerFirst(first.definition))}`,
          `${second.term}: ${asSentence(lowerFirst(second.definition))}`,
        ],
      },
    });
  }
  return [definitions, completions, describe, corrections, comparisons];
}

function multipleChoiceCandidates(
  { subtopic, notes }: NotedSubtopic,
  distractorTerms: readonly { term: string; definition: string }[],
  neighbours: readonly NotedSubtopic[],
  seedText: string,
): Candidate<DraftMultipleChoice>[][] {
  const build = (
    question: string,
    correct: string,
    distractors: readonly string[],
    explanation: string,
  ): DraftMultipleChoice | null => {
    const random = seededRandom(hashSeed(`${seedText}|${question}`));
    const seen = new Set([correct.toLowerCase()]);
    const chosen: string[] = [];
    for (const item of distractors) {
      if (chosen.length === 3) break;
      if (seen.has(item.toLowerCase())) continue;
      seen.add(item.toLowerCase());
      chosen.push(item);
    }
    if (chosen.length < 3) return null;
    const options = seededShuffle([correct, ...chosen], random);
    return {
      question,
      options,
      correctAnswer: correct,
      explanation,
      markScheme: `1 mark for the correct option: ${correct}`,
      markSchemePoints: [correct],
    };
  };
  const otherTerms = (term: string) =>
    distractorTerms.map((item) => item.term).filter((item) => item !== term);
  const otherDefinitions = (term: string) =>
    distractorTerms.filter((item) => item.term !== term).map((item) => asSentence(item.definition));

  const termFromDefinition = notes.keyTerms.flatMap((term): Candidate<DraftMultipleChoice>[] => {
    const draft = build(
      `Which term matches this definition? ${asSentence(term.definition)}`,
      term.term,
      otherTerms(term.term),
      `${term.term} means ${lowerFirst(asSentence(term.definition))}`,
    );
    return draft ? [{ focus: `term:${term.term}`, draft }] : [];
  });

  const definitionFromTerm = notes.keyTerms.flatMap((term): Candidate<DraftMultipleChoice>[] => {
    const draft = build(
      `Which statement best describes ${lowerFirst(term.term)}?`,
      asSentence(term.definition),
      otherDefinitions(term.term),
      `${term.term} means ${lowerFirst(asSentence(term.definition))} The other options describe different terms.`,
    );
    return draft ? [{ focus: `definition:${term.term}`, draft }] : [];
  });

  const completions = clozeItems(notes).flatMap(
    ({ sentence, term, fact }): Candidate<DraftMultipleChoice>[] => {
      const draft = build(
        `Which term completes the sentence? ${sentence}`,
        term,
        otherTerms(term),
        `The complete statement is: ${asSentence(fact)}`,
      );
      return draft ? [{ focus: `cloze:${sentence}`, draft }] : [];
    },
  );

  // False statements come only from misconceptions, which state a real mistake, never from other facts.
  const falseClaims = [{ subtopic, notes }, ...neighbours]
    .flatMap((entry) => entry.notes.misconceptions)
    .map(falseClaimOf)
    .flatMap((claim) => (claim ? [asSentence(claim.claim)] : []));
  const trueStatements = notes.keyFacts.flatMap((fact): Candidate<DraftMultipleChoice>[] => {
    const statement = asSentence(firstSentence(fact));
    const draft = build(
      `Which statement about ${lowerFirst(subtopic.name)} is correct?`,
      statement,
      falseClaims,
      `${statement} The other statements are common misconceptions.`,
    );
    return draft ? [{ focus: `fact:${fact}`, draft }] : [];
  });
  return [termFromDefinition, completions, trueStatements, definitionFromTerm];
}

/** Facts that contain a key term, with the term blanked out. */
function clozeItems(notes: KnowledgeNotes): { sentence: string; term: string; fact: string }[] {
  const items: { sentence: string; term: string; fact: string }[] = [];
  for (const fact of notes.keyFacts) {
    const term = [...notes.keyTerms]
      .sort((a, b) => b.term.length - a.term.length)
      .find((item) => containsTerm(fact, item.term));
    if (!term) continue;
    const sentence = asSentence(fact.replace(termPattern(term.term), "_____"));
    items.push({ sentence, term: term.term, fact });
  }
  return items;
}

function termPattern(term: string): RegExp {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\b${escaped}\\b`, "i");
}

function containsTerm(text: string, term: string): boolean {
  return termPattern(term).test(text);
}

/**
 * Splits a misconception written as "Students think X, but Y" into the mistaken claim and its correction.
 * Only the recognised shapes are used, so a correction is never mistaken for a false statement.
 */
export function falseClaimOf(misconception: string): { claim: string; correction: string } | null {
  const match =
    /^(?:(?:many |some |a lot of )?(?:students|people|learners|candidates)|many|some) (?:often |sometimes |commonly |may |wrongly )?(?:think|believe|assume|say|state|write) (?:that )?(.+?)(?:;\s*|,?\s+but\s+|\.\s+(?:in fact|actually),?\s+|,\s+whereas\s+)(.+)$/i.exec(
      misconception.trim(),
    );
  if (!match) return null;
  const claim = match[1]!.trim();
  const correction = match[2]!.trim().replace(/^(in fact|actually),?\s+/i, "");
  if (claim.split(/\s+/).length < 3 || correction.split(/\s+/).length < 3) return null;
  return { claim, correction };
}
