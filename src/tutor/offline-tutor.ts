import type { CatalogueSnapshot } from "../catalogue/model.ts";
import type { KnowledgeNotes } from "../catalogue/source-schema.ts";
import type { RetrievedNote, TutorEngine, TutorRequest, TutorStreamPart } from "./engine.ts";
import type { ChatMessage } from "./messages.ts";
import { createNoteRetriever } from "./retrieval.ts";
import {
  asSentence,
  contentStems,
  estimateTokens,
  firstSentence,
  lowerFirst,
  sentences,
  stemCoverage,
  uniqueStems,
  words,
} from "./text.ts";

/**
 * The default tutor: composes replies from the retrieved knowledge notes in the requested teaching style.
 * Deterministic and offline; it never claims more than its notes hold.
 */

export const offlineTutorModelName = "syllabi-offline-1";

/** Words per streamed text part: small enough to look like a live reply, few enough to keep NDJSON lean. */
const wordsPerPart = 4;

export function createOfflineTutor(options: { catalogue: CatalogueSnapshot }): TutorEngine {
  const { catalogue } = options;
  return {
    model: offlineTutorModelName,
    async *streamReply(request: TutorRequest, signal: AbortSignal): AsyncIterable<TutorStreamPart> {
      signal.throwIfAborted();
      const reply = composeOfflineReply(request, catalogue);
      for (const part of wordGroups(reply, wordsPerPart)) {
        // Yield to the event loop so an abort from a disconnected client is noticed between parts.
        await Promise.resolve();
        signal.throwIfAborted();
        yield { type: "text", text: part };
      }
      yield {
        type: "finish",
        inputTokens: estimateInputTokens(request),
        outputTokens: estimateTokens(reply),
      };
    },
  };
}

/** Input is what a model would have read: the conversation plus the notes supplied as context. */
function estimateInputTokens(request: TutorRequest): number {
  const conversation = request.messages.map((message) => message.content).join("\n");
  const notes = request.context.map((item) => renderNotesPlain(item.notes)).join("\n");
  return estimateTokens(conversation) + estimateTokens(notes);
}

function renderNotesPlain(notes: KnowledgeNotes): string {
  return [
    notes.summary,
    ...notes.keyTerms.map((term) => `${term.term}: ${term.definition}`),
    ...notes.keyFacts,
    ...notes.misconceptions,
  ].join("\n");
}

export function wordGroups(text: string, size: number): string[] {
  const pieces = text.match(/\s*\S+\s*/g) ?? [];
  const groups: string[] = [];
  for (let index = 0; index < pieces.length; index += size)
    groups.push(pieces.slice(index, index + size).join(""));
  return groups;
}

export function composeOfflineReply(request: TutorRequest, catalogue: CatalogueSnapshot): string {
  const question = lastOf(request.messages, "user")?.content ?? "";
  const tutorName = tutorNameOf(request);
  if (request.context.length === 0) {
    if (isGreeting(question)) {
      return `Hello! I'm ${tutorName}. I can help with ${offerOf(request, catalogue)}. What would you like to work on?`;
    }
    return notCoveredReply(request, catalogue);
  }
  switch (request.teachingStyle) {
    case "socratic":
      return socraticReply(request, question);
    case "concise":
      return conciseReply(request.context, question);
    case "step-by-step":
      return stepByStepReply(request.context, question);
    case "friendly":
      return friendlyReply(request.context, question);
  }
}

function notCoveredReply(request: TutorRequest, catalogue: CatalogueSnapshot): string {
  const offer = offerOf(request, catalogue);
  const opening = "My notes don't cover that, so I'd rather not guess and risk teaching you something wrong.";
  if (request.teachingStyle === "concise") return `${opening} I can help with ${offer}.`;
  return `${opening} I can help with ${offer}. Could you ask about one of those, or tell me which topic your question belongs to?`;
}

function tutorNameOf(request: TutorRequest): string {
  switch (request.tutor.kind) {
    case "genie":
      return request.tutor.subject.genie.name;
    case "custom":
      return request.tutor.genie.name;
    case "general":
      return "the Syllabi tutor";
  }
}

/** A short, honest list of what this tutor's notes do cover. */
function offerOf(request: TutorRequest, catalogue: CatalogueSnapshot): string {
  const tutor = request.tutor;
  if (tutor.kind === "genie") {
    const topics = tutor.subject.topics.slice(0, 5).map((topic) => topic.name);
    const label = `${tutor.subject.qualification} ${tutor.subject.name}`;
    return topics.length > 0 ? `${label} topics such as ${joinList(topics)}` : `${label}`;
  }
  if (tutor.kind === "custom") {
    const subjects = createNoteRetriever(catalogue).subjectsMatching(tutor.genie.subject);
    const topics = subjects.flatMap((subject) => subject.topics.map((topic) => topic.name));
    const unique = [...new Set(topics)].slice(0, 5);
    if (unique.length > 0)
      return `${tutor.genie.subject} topics such as ${joinList(unique)}, and study skills`;
  }
  const subjects = catalogue.subjects
    .filter((subject) => subject.specPointsMapped)
    .slice(0, 5)
    .map((subject) => `${subject.qualification} ${subject.name}`);
  const unique = [...new Set(subjects)];
  return unique.length > 0
    ? `${joinList(unique)}, plus study skills and revision technique`
    : "study skills and revision technique";
}

function friendlyReply(context: readonly RetrievedNote[], question: string): string {
  const primary = context[0]!;
  const notes = primary.notes;
  const term = pickTerm(notes, question);
  const facts = rankFacts(notes, question)
    .filter((fact) => !sameIdea(fact, term.definition))
    .slice(0, 2);
  const parts: string[] = [`Good question! Let's look at ${lowerFirst(primary.title)}.`];
  const summaryOpening = firstSentence(notes.summary);
  parts.push(asSentence(summaryOpening));
  if (!sameIdea(summaryOpening, term.definition)) {
    parts.push(
      `The key term here is ${lowerFirst(term.term)}, which means ${lowerFirst(stripFullStop(term.definition))}.`,
    );
  }
  if (facts[0]) parts.push(`It also helps to know that ${lowerFirst(stripFullStop(facts[0]))}.`);
  if (facts[1]) parts.push(asSentence(facts[1]));
  const misconception = pickMisconception(notes, question);
  if (misconception) parts.push(`Watch out for a common mix-up: ${lowerFirst(asSentence(misconception))}`);
  const related = context[1];
  if (related && related.title !== primary.title)
    parts.push(`This links to ${lowerFirst(related.title)} too, if you'd like to go there next.`);
  parts.push(
    `Does that make sense? Try explaining ${lowerFirst(term.term)} back to me in your own words and I'll check it.`,
  );
  return parts.join(" ");
}

/** Two or three sentences: the most relevant definition or fact first. */
function conciseReply(context: readonly RetrievedNote[], question: string): string {
  const notes = context[0]!.notes;
  const term = pickTerm(notes, question);
  const definition = `${capitalise(term.term)} means ${lowerFirst(firstSentence(stripFullStop(term.definition)).replace(/\.$/, ""))}.`;
  const facts = rankFacts(notes, question)
    .map((fact) => asSentence(firstSentence(fact)))
    .filter((fact) => !sameIdea(fact, term.definition));
  const chosen =
    asksForMeaning(question) || facts.length === 0
      ? [definition, ...facts]
      : [facts[0]!, definition, ...facts.slice(1)];
  const reply = chosen.slice(0, 2);
  const third = chosen[2];
  if (third && reply.join(" ").length + third.length < 320) reply.push(third);
  return reply.join(" ");
}

function stepByStepReply(context: readonly RetrievedNote[], question: string): string {
  const primary = context[0]!;
  const notes = primary.notes;
  const term = pickTerm(notes, question);
  const steps = [
    `Start with the key idea: ${lowerFirst(term.term)} means ${lowerFirst(stripFullStop(term.definition))}.`,
    ...rankFacts(notes, question)
      .filter((fact) => !sameIdea(fact, term.definition))
      .slice(0, 3)
      .map((fact) => asSentence(fact)),
  ];
  const misconception = pickMisconception(notes, question);
  if (misconception) steps.push(`Avoid a common mistake: ${lowerFirst(asSentence(misconception))}`);
  steps.push(
    `Check yourself: cover your notes and explain ${lowerFirst(term.term)} in one or two sentences.`,
  );
  const numbered = steps.map((step, index) => `${index + 1}. ${step}`);
  return [`Let's work through ${lowerFirst(primary.title)} step by step.`, ...numbered].join("\n");
}

interface SocraticTarget {
  term: { term: string; definition: string };
  notes: KnowledgeNotes;
}

/**
 * A first turn asks a guiding question about the key term. When the tutor's previous turn asked about a term
 * in these notes, the latest message is taken as the student's answer and compared with the definition.
 */
function socraticReply(request: TutorRequest, latest: string): string {
  const previousQuestion = previousTutorQuestion(request.messages);
  const target = previousQuestion ? findAskedTerm(previousQuestion, request.context) : null;
  if (!target) {
    const primary = request.context[0]!;
    const term = pickTerm(primary.notes, latest);
    return [
      "Let's think this through together rather than me just telling you.",
      `Here's a starting point: ${lowerFirst(asSentence(firstSentence(primary.notes.summary)))}`,
      `So, a question for you: in your own words, what do you think ${lowerFirst(term.term)} means?`,
    ].join(" ");
  }
  return followUp(target, latest, request.context);
}

function followUp(target: SocraticTarget, answer: string, context: readonly RetrievedNote[]): string {
  const { term, notes } = target;
  const definition = `${lowerFirst(term.term)} means ${lowerFirst(stripFullStop(term.definition))}`;
  const quote = quoteOf(answer);
  // A hint should mention the term itself: a fact first, else the sentence of the summary that names it.
  const supporting =
    [...notes.keyFacts, ...sentences(notes.summary)].find((text) => stemCoverage(term.term, text) >= 1) ??
    notes.keyFacts[0] ??
    notes.summary;
  const next = nextQuestion(target, context);

  if (isUnsure(answer)) {
    return [
      "That's fine, not knowing yet is where learning starts.",
      `Here's a clue: ${lowerFirst(asSentence(supporting))}`,
      `With that in mind, what do you think ${lowerFirst(term.term)} might mean?`,
    ].join(" ");
  }

  const coverage = stemCoverage(term.definition, answer);
  const misconception = notes.misconceptions.find(
    (item) => stemCoverage(misconceptionClaim(item), answer) >= 0.6,
  );
  if (misconception && coverage < 0.5) {
    return [
      `You said "${quote}". That's a very common idea, but it isn't quite right: ${lowerFirst(asSentence(misconception))}`,
      `The key point is that ${definition}.`,
      `Can you say in your own words why the first idea doesn't work?`,
    ].join(" ");
  }
  if (coverage >= 0.5) {
    return [
      `Yes, that's right. You said "${quote}", and that matches the key idea: ${definition}.`,
      `Let's go one step further: ${next}`,
    ].join(" ");
  }
  const matched = matchedWords(term.definition, answer);
  if (matched.length > 0) {
    return [
      `You're on the right track: you mentioned ${joinList(matched.map((word) => `"${word}"`))}, which is part of it.`,
      `The missing piece is this: ${definition}.`,
      `Can you put the whole idea into one sentence of your own?`,
    ].join(" ");
  }
  return [
    `Not quite. You said "${quote}", but ${definition}.`,
    `Here's something that helps: ${lowerFirst(asSentence(supporting))}`,
    `With that in mind, how would you explain ${lowerFirst(term.term)} now?`,
  ].join(" ");
}

function nextQuestion(target: SocraticTarget, context: readonly RetrievedNote[]): string {
  const candidates = [target.notes, ...context.map((item) => item.notes)].flatMap((notes) => notes.keyTerms);
  const other = candidates.find((term) => term.term !== target.term.term);
  if (other)
    return `how would you explain ${lowerFirst(other.term)}, and how does it connect to ${lowerFirst(target.term.term)}?`;
  return `can you give an example of ${lowerFirst(target.term.term)} from your course?`;
}

/** The tutor's last turn before the latest student message, when it ended by asking something. */
function previousTutorQuestion(messages: readonly ChatMessage[]): string | null {
  const latestIndex = messages.length - 1;
  if (latestIndex < 1 || messages[latestIndex]?.role !== "user") return null;
  const previous = messages[latestIndex - 1];
  if (previous?.role !== "assistant") return null;
  const last = sentences(previous.content).at(-1) ?? "";
  return last.includes("?") ? last : null;
}

function findAskedTerm(questionSentence: string, context: readonly RetrievedNote[]): SocraticTarget | null {
  const lower = ` ${words(questionSentence).join(" ")} `;
  for (const item of context) {
    for (const term of item.notes.keyTerms) {
      if (lower.includes(` ${words(term.term).join(" ")} `)) return { term, notes: item.notes };
    }
  }
  return null;
}

/** The mistaken belief in a misconception note ("Students think X, but Y" → "X"). */
export function misconceptionClaim(text: string): string {
  const beforeCorrection = text.split(/;|,? but |\. In fact|, whereas | — | - /i)[0] ?? text;
  return beforeCorrection.replace(
    /^(many |some )?(students|people|learners) (often |sometimes |may )?(think|believe|assume|say)( that)? /i,
    "",
  );
}

function pickTerm(notes: KnowledgeNotes, question: string): { term: string; definition: string } {
  const questionStems = uniqueStems(question);
  let best = notes.keyTerms[0]!;
  let bestScore = -1;
  for (const term of notes.keyTerms) {
    const termStems = contentStems(term.term);
    const named = termStems.length > 0 && termStems.every((item) => questionStems.has(item)) ? 10 : 0;
    const score =
      named +
      termStems.filter((item) => questionStems.has(item)).length * 2 +
      stemCoverage(question, term.definition);
    if (score > bestScore) {
      best = term;
      bestScore = score;
    }
  }
  return best;
}

/** Facts ordered by how many of the question's words they share; ties keep the notes' own order. */
function rankFacts(notes: KnowledgeNotes, question: string): string[] {
  const questionStems = uniqueStems(question);
  return notes.keyFacts
    .map((fact, index) => ({
      fact,
      index,
      shared: [...uniqueStems(fact)].filter((item) => questionStems.has(item)).length,
    }))
    .sort((a, b) => b.shared - a.shared || a.index - b.index)
    .map((entry) => entry.fact);
}

function pickMisconception(notes: KnowledgeNotes, question: string): string | undefined {
  const questionStems = uniqueStems(question);
  return [...notes.misconceptions].sort(
    (a, b) =>
      [...uniqueStems(b)].filter((item) => questionStems.has(item)).length -
      [...uniqueStems(a)].filter((item) => questionStems.has(item)).length,
  )[0];
}

function matchedWords(target: string, answer: string): string[] {
  const targetStems = uniqueStems(target);
  const seen = new Set<string>();
  const matched: string[] = [];
  for (const word of words(answer)) {
    const stems = contentStems(word);
    const item = stems[0];
    if (item && targetStems.has(item) && !seen.has(item)) {
      seen.add(item);
      matched.push(word);
    }
  }
  return matched.slice(0, 4);
}

function sameIdea(a: string, b: string): boolean {
  return stemCoverage(a, b) >= 0.7;
}

function asksForMeaning(question: string): boolean {
  return /\b(what (is|are|does)|what's|define|definition|meaning|mean)\b/i.test(question);
}

function isUnsure(answer: string): boolean {
  return (
    /\b(i )?(don'?t|do not) know\b|\bnot sure\b|\bno idea\b|\bidk\b|\bno clue\b/i.test(answer) &&
    answer.length < 80
  );
}

function isGreeting(text: string): boolean {
  return (
    /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening))\b/i.test(text) && contentStems(text).length <= 1
  );
}

function quoteOf(answer: string): string {
  const flat = answer.replace(/\s+/g, " ").trim().replace(/"/g, "'");
  return flat.length <= 120 ? flat : `${flat.slice(0, 117).trimEnd()}…`;
}

function lastOf(messages: readonly ChatMessage[], role: ChatMessage["role"]): ChatMessage | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1)
    if (messages[index]!.role === role) return messages[index];
  return undefined;
}

function stripFullStop(text: string): string {
  return text.trim().replace(/\.$/, "");
}

function capitalise(text: string): string {
  return text.length > 0 ? text[0]!.toUpperCase() + text.slice(1) : text;
}

function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
