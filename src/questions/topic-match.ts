import { examBoards } from "../catalogue/boards.ts";
import type { CatalogueSnapshot, Subject, Subtopic } from "../catalogue/model.ts";
import { createNoteRetriever } from "../tutor/retrieval.ts";
import { contentStems, words } from "../tutor/text.ts";

/** Below this share of the topic's words, the best subtopic is a guess rather than a match. */
export const topicMatchThreshold = 0.5;

/** Words that say what the caller wants rather than what the topic is. */
const requestWords = new Set([
  "question",
  "questions",
  "quiz",
  "test",
  "revision",
  "practice",
  "exam",
  "topic",
  "gcse",
  "btec",
  "level",
  "year",
  "students",
  "student",
  "class",
]);

export interface TopicMatch {
  subject: Subject;
  subtopic: Subtopic;
  confidence: number;
}

/** The catalogue subtopic (with notes) a free-text topic refers to, within the optional hints; null if none. */
export function matchTopic(
  catalogue: CatalogueSnapshot,
  source: { topic: string; subjectHint?: string; qualification?: string; examBoard?: string },
): TopicMatch | null {
  const subjects = catalogue.subjects.filter(
    (subject) =>
      subject.specPointsMapped &&
      matchesQualification(subject, source.qualification) &&
      matchesBoard(subject, source.examBoard) &&
      matchesSubjectHint(subject, source.subjectHint),
  );
  if (subjects.length === 0) return null;
  const query = words(source.topic)
    .filter((word) => !requestWords.has(word) && !/^(y|yr)?\d{1,2}$/.test(word))
    .join(" ");
  if (contentStems(query).length === 0) return null;
  const [best] = createNoteRetriever(catalogue).search(query, {
    subjectIds: new Set(subjects.map((subject) => subject.id)),
    limit: 1,
  });
  if (!best || best.confidence < topicMatchThreshold) return null;
  const subtopic = catalogue.subtopicById.get(best.note.id);
  const subject = subtopic ? catalogue.subjectById.get(subtopic.subjectId) : undefined;
  return subtopic && subject ? { subject, subtopic, confidence: best.confidence } : null;
}

function matchesQualification(subject: Subject, qualification: string | undefined): boolean {
  if (!qualification) return true;
  const wanted = words(qualification).join("");
  return words(subject.qualification).join("") === wanted;
}

function matchesBoard(subject: Subject, examBoard: string | undefined): boolean {
  if (!examBoard) return true;
  const wanted = examBoard.trim().toLowerCase();
  const board = examBoards.find((item) => item.id === subject.examBoardId);
  return (
    subject.examBoardId === wanted ||
    subject.examBoard.toLowerCase() === wanted ||
    (board?.aliases.includes(wanted) ?? false)
  );
}

function matchesSubjectHint(subject: Subject, hint: string | undefined): boolean {
  if (!hint) return true;
  if (subject.id === hint.trim()) return true;
  const hintStems = new Set(contentStems(hint));
  const nameStems = contentStems(subject.name);
  return (
    nameStems.length > 0 &&
    (nameStems.every((item) => hintStems.has(item)) ||
      [...hintStems].every((item) => nameStems.includes(item)))
  );
}
