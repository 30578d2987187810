import type { Subject, Subtopic } from "../catalogue/model.ts";

export const questionTypes = ["written", "multiple_choice"] as const;
export type QuestionType = (typeof questionTypes)[number];

export interface WrittenQuestion {
  type: "written";
  question: string;
  marks: number;
  markScheme: string;
  markSchemePoints: string[];
}

export interface MultipleChoiceQuestion {
  type: "multiple_choice";
  question: string;
  /** Exactly four. */
  options: string[];
  /** The exact text of one option. */
  correctAnswer: string;
  correctOptionIndex: number;
  explanation: string;
  markScheme: string;
  markSchemePoints: string[];
}

export type Question = WrittenQuestion | MultipleChoiceQuestion;

export type QuestionSource =
  | { kind: "subtopic"; subtopic: Subtopic; subject: Subject }
  | { kind: "topic"; topic: string; subjectHint?: string; qualification?: string; examBoard?: string };

export interface QuestionSetRequest {
  source: QuestionSource;
  /** In the caller's order; the first type takes the odd question. */
  types: QuestionType[];
  /** 1–20, shared across the types. */
  count: number;
}

export type QuestionSetResult =
  | {
      ok: true;
      /** The subtopic's name when the set is drawn from one, else the topic as the caller or model named it. */
      topic: string;
      subject: string | null;
      subjectId: string | null;
      subtopicId: string | null;
      questions: Question[];
    }
  | { ok: false; reason: "topic_not_covered" };

/** Writes a set of exam-style questions. Provider failures throw `ModelUnavailableError`. */
export interface QuestionWriter {
  readonly model: string;
  generate(request: QuestionSetRequest, signal: AbortSignal): Promise<QuestionSetResult>;
}

/**
 * How `count` is shared across the requested types (API §5): evenly, in the listed order, the first listed type
 * taking the odd one. Repeated types count once.
 */
export function splitQuestionCount(
  types: readonly QuestionType[],
  count: number,
): { type: QuestionType; count: number }[] {
  const distinct = [...new Set(types.length > 0 ? types : (["written"] as const))];
  const base = Math.floor(count / distinct.length);
  const remainder = count % distinct.length;
  return distinct.map((type, index) => ({ type, count: base + (index < remainder ? 1 : 0) }));
}
