import { examBoards } from "./boards.ts";
import type { CatalogueSnapshot, Subject, Subtopic } from "./model.ts";
import { qualifications, type ExamBoardId, type Qualification } from "./source-schema.ts";

/** The public shapes of §4, built from the snapshot. Pure functions: no HTTP here. */

export function subjectView(subject: Subject) {
  return {
    id: subject.id,
    name: subject.name,
    qualification: subject.qualification,
    examBoard: subject.examBoard,
    specificationCode: subject.specificationCode,
    specificationUrl: subject.specificationUrl,
    specPointsMapped: subject.specPointsMapped,
    genie: { shortName: subject.genie.shortName, name: subject.genie.name },
  };
}

export function treeView(subject: Subject) {
  let subtopicCount = 0;
  const topics = subject.topics.map((topic) => {
    subtopicCount += topic.subtopics.length;
    return {
      id: topic.id,
      name: topic.name,
      order: topic.order,
      subtopics: topic.subtopics.map((subtopic) => ({
        id: subtopic.id,
        name: subtopic.name,
        description: subtopic.description,
        order: subtopic.order,
      })),
    };
  });
  return { subject: subjectView(subject), topics, topicCount: topics.length, subtopicCount };
}

export function specPointsView(subtopic: Subtopic, subject: Subject) {
  const specPoints = subject.specPointsMapped
    ? subtopic.specRefs.map((ref) => ({
        code: ref.code,
        unitName: ref.unitName,
        subtopicId: subtopic.id,
        documentUrl: ref.documentUrl,
      }))
    : [];
  return {
    subtopicId: subtopic.id,
    subjectId: subject.id,
    mapped: subject.specPointsMapped,
    specPoints,
    count: specPoints.length,
  };
}

export const qualificationNames: readonly string[] = qualifications;
export const examBoardNames: readonly string[] = examBoards.map((board) => board.name);

export function parseQualification(value: string): Qualification | null {
  return qualifications.find((qualification) => qualification.toLowerCase() === value.trim().toLowerCase()) ?? null;
}

export function parseExamBoard(value: string): ExamBoardId | null {
  const wanted = value.trim().toLowerCase();
  return examBoards.find((board) => board.id === wanted || board.aliases.includes(wanted))?.id ?? null;
}

export function filterSubjects(
  catalogue: CatalogueSnapshot,
  filters: { qualification?: Qualification | undefined; examBoardId?: ExamBoardId | undefined },
): Subject[] {
  return catalogue.subjects.filter(
    (subject) =>
      (!filters.qualification || subject.qualification === filters.qualification) &&
      (!filters.examBoardId || subject.examBoardId === filters.examBoardId),
  );
}
