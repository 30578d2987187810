import type { ExamBoardId, KnowledgeNotes, Qualification } from "./source-schema.ts";

/** The compiled, immutable catalogue that every data request and offline engine reads. */

export interface SpecReference {
  code: string;
  unitName: string;
  documentUrl: string;
}

export interface Subtopic {
  /** `<spec id>.<subtopic slug>`: stable across releases, never reused. */
  id: string;
  name: string;
  description: string;
  order: number;
  keywords: readonly string[];
  specRefs: readonly SpecReference[];
  notes: KnowledgeNotes | null;
  topicId: string;
  subjectId: string;
}

export interface Topic {
  /** `<spec id>.<topic slug>` */
  id: string;
  name: string;
  order: number;
  subjectId: string;
  subtopics: readonly Subtopic[];
}

export interface Genie {
  shortName: string;
  name: string;
}

export interface Subject {
  id: string;
  name: string;
  qualification: Qualification;
  examBoardId: ExamBoardId;
  /** The board's display name, e.g. "Pearson Edexcel". */
  examBoard: string;
  specificationCode: string;
  specificationUrl: string;
  documentUrl: string;
  firstTeaching: number;
  specPointsMapped: boolean;
  genie: Genie;
  topics: readonly Topic[];
  sources: readonly { url: string; title: string; confirms: string }[];
}

export interface CatalogueSnapshot {
  /** Ordered by qualification, name, exam board as GET /subjects answers. */
  subjects: readonly Subject[];
  subjectById: ReadonlyMap<string, Subject>;
  topicById: ReadonlyMap<string, Topic>;
  subtopicById: ReadonlyMap<string, Subtopic>;
  subjectByGenie: ReadonlyMap<string, Subject>;
}
