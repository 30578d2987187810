import { z } from "zod";

/**
 * The shape of one specification source file under `catalogue/specifications/`.
 * Everything a developer reads (descriptions, notes, keywords) is written in our own words;
 * codes, unit names and links are facts checked against the board's published documents.
 */

export const qualifications = ["GCSE", "A-Level", "BTEC"] as const;
export type Qualification = (typeof qualifications)[number];

export const examBoardIds = ["aqa", "edexcel", "ocr", "eduqas", "pearson"] as const;
export type ExamBoardId = (typeof examBoardIds)[number];

const slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case words joined by hyphens")
  .max(80);

const prose = (min: number, max: number) => z.string().trim().min(min).max(max);

const httpsUrl = z.url({ protocol: /^https$/ });

export const specReferenceSourceSchema = z.strictObject({
  /** The code exactly as the board numbers it, e.g. "4.1.1.2", "1.2.3", "N5", "A1.3". */
  code: z.string().trim().min(1).max(40),
  /** The board's name for the unit, paper, component or section the code sits in. */
  unitName: prose(2, 160),
  /** Overrides the specification's documentUrl for this reference. */
  documentUrl: httpsUrl.optional(),
});

export const knowledgeNotesSchema = z.strictObject({
  summary: prose(40, 1200),
  keyTerms: z.array(z.strictObject({ term: prose(1, 80), definition: prose(10, 400) })).min(2).max(15),
  keyFacts: z.array(prose(10, 400)).min(2).max(15),
  misconceptions: z.array(prose(10, 400)).min(1).max(8),
});

export const subtopicSourceSchema = z.strictObject({
  slug,
  name: prose(2, 120),
  /** One to three sentences, our words. */
  description: prose(20, 600),
  keywords: z.array(prose(2, 60)).min(3).max(25),
  specRefs: z.array(specReferenceSourceSchema).max(20).optional(),
  notes: knowledgeNotesSchema.optional(),
});

export const topicSourceSchema = z.strictObject({
  slug,
  name: prose(2, 120),
  subtopics: z.array(subtopicSourceSchema).min(1),
});

export const sourceRecordSchema = z.strictObject({
  url: httpsUrl,
  title: prose(3, 200),
  /** What was confirmed from this source (codes, structure, unit names, links). */
  confirms: prose(3, 400),
});

export const specificationSourceSchema = z.strictObject({
  id: slug,
  name: prose(2, 100),
  qualification: z.enum(qualifications),
  examBoard: z.enum(examBoardIds),
  specificationCode: z.string().trim().min(2).max(20),
  firstTeaching: z.number().int().min(2010).max(2030),
  /** The board's public page for the specification. */
  specificationUrl: httpsUrl,
  /** The published specification document that spec references link to. */
  documentUrl: httpsUrl,
  genie: z.strictObject({ shortName: slug, name: prose(3, 60) }),
  /** "mapped": every subtopic carries specRefs and notes. "unmapped": none do. */
  mapping: z.enum(["mapped", "unmapped"]),
  /** Where the codes and structure were checked; required, at least one. */
  sources: z.array(sourceRecordSchema).min(1),
  /**
   * A regular expression every spec reference code must match, when the board's default does not fit this
   * specification (say why in caveats).
   */
  codePattern: z.string().min(2).max(200).optional(),
  /** Anything that could not be confirmed, said plainly. */
  caveats: z.array(prose(5, 500)).optional(),
  topics: z.array(topicSourceSchema).min(1),
});

export type SpecificationSource = z.infer<typeof specificationSourceSchema>;
export type TopicSource = z.infer<typeof topicSourceSchema>;
export type SubtopicSource = z.infer<typeof subtopicSourceSchema>;
export type KnowledgeNotes = z.infer<typeof knowledgeNotesSchema>;
