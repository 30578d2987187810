import { examBoardById } from "./boards.ts";
import type { CatalogueSnapshot, Subject, Subtopic, Topic } from "./model.ts";
import { qualifications, type SpecificationSource } from "./source-schema.ts";

const qualificationOrder = new Map(qualifications.map((qualification, index) => [qualification, index]));

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Turns validated source files into the immutable snapshot with its lookup indexes. */
export function compileCatalogue(sources: readonly SpecificationSource[]): CatalogueSnapshot {
  return indexCatalogue(compileSubjects(sources));
}

/** The subjects of validated source files, in the order GET /subjects answers: plain data, JSON as it is. */
export function compileSubjects(sources: readonly SpecificationSource[]): Subject[] {
  const subjects: Subject[] = sources.map((source) => {
    const board = examBoardById(source.examBoard);
    const topics: Topic[] = source.topics.map((topicSource, topicIndex) => {
      const topicId = `${source.id}.${topicSource.slug}`;
      const subtopics: Subtopic[] = topicSource.subtopics.map((subtopicSource, subtopicIndex) => ({
        id: `${source.id}.${subtopicSource.slug}`,
        name: subtopicSource.name,
        description: subtopicSource.description,
        order: subtopicIndex + 1,
        keywords: subtopicSource.keywords,
        specRefs: (subtopicSource.specRefs ?? []).map((ref) => ({
          code: ref.code,
          unitName: ref.unitName,
          documentUrl: ref.documentUrl ?? source.documentUrl,
        })),
        notes: subtopicSource.notes ?? null,
        topicId,
        subjectId: source.id,
      }));
      return { id: topicId, name: topicSource.name, order: topicIndex + 1, subjectId: source.id, subtopics };
    });
    return {
      id: source.id,
      name: source.name,
      qualification: source.qualification,
      examBoardId: source.examBoard,
      examBoard: board.name,
      specificationCode: source.specificationCode,
      specificationUrl: source.specificationUrl,
      documentUrl: source.documentUrl,
      firstTeaching: source.firstTeaching,
      specPointsMapped: source.mapping === "mapped",
      genie: source.genie,
      topics,
      sources: source.sources,
    };
  });

  subjects.sort(
    (a, b) =>
      (qualificationOrder.get(a.qualification) ?? 0) - (qualificationOrder.get(b.qualification) ?? 0) ||
      a.name.localeCompare(b.name, "en-GB") ||
      a.examBoard.localeCompare(b.examBoard, "en-GB") ||
      a.id.localeCompare(b.id),
  );
  return subjects;
}

/** The immutable snapshot of compiled subjects (fresh, or read back from the snapshot cache) and its indexes. */
export function indexCatalogue(subjects: Subject[]): CatalogueSnapshot {
  const topicById = new Map<string, Topic>();
  const subtopicById = new Map<string, Subtopic>();
  for (const subject of subjects) {
    for (const topic of subject.topics) {
      topicById.set(topic.id, topic);
      for (const subtopic of topic.subtopics) subtopicById.set(subtopic.id, subtopic);
    }
  }
  return deepFreeze({
    subjects,
    subjectById: new Map(subjects.map((subject) => [subject.id, subject])),
    topicById,
    subtopicById,
    subjectByGenie: new Map(subjects.map((subject) => [subject.genie.shortName, subject])),
  });
}
