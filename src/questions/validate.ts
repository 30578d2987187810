import { normaliseForComparison } from "../tutor/text.ts";
import type { MultipleChoiceQuestion, Question, QuestionType, WrittenQuestion } from "./model.ts";

/** Semantic checks every question set passes before it leaves the writer, whichever engine wrote it. */

export interface DraftWritten {
  question: string;
  marks: number;
  markScheme: string;
  markSchemePoints: string[];
}

export interface DraftMultipleChoice {
  question: string;
  options: string[];
  correctAnswer: string;
  explanation: string;
  markScheme: string;
  markSchemePoints: string[];
}

// A blank such as "_____" is fine; bold, headings, code fences, table rows and tags are not.
const markupPattern = /<\/?[a-z][^>]*>|\*\*\S|__[^_\s][^_]*__|```|^#{1,6}\s|^\s*\|.*\|\s*$/im;

function clean(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function checkText(label: string, text: string, problems: string[]): void {
  if (text.length === 0) problems.push(`${label} is empty`);
  else if (markupPattern.test(text)) problems.push(`${label} contains HTML or Markdown; plain text only`);
}

/**
 * Turns drafts into API questions, or lists what is wrong with them. Tolerates a correct answer that differs
 * from its option only in case or spacing (the option's exact text is used); everything else must be right.
 */
export function finaliseQuestionSet(
  drafts: { written: DraftWritten[]; multipleChoice: DraftMultipleChoice[] },
  plan: readonly { type: QuestionType; count: number }[],
): { ok: true; questions: Question[] } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const seen = new Set<string>();
  const questions: Question[] = [];

  const noteDuplicate = (label: string, text: string) => {
    const key = normaliseForComparison(text);
    if (seen.has(key)) problems.push(`${label} duplicates an earlier question`);
    seen.add(key);
  };

  for (const { type, count } of plan) {
    if (type === "written") {
      if (drafts.written.length < count)
        problems.push(`expected ${count} written questions, got ${drafts.written.length}`);
      drafts.written.slice(0, count).forEach((draft, index) => {
        const label = `written[${index}]`;
        const question: WrittenQuestion = {
          type: "written",
          question: clean(draft.question),
          marks: draft.marks,
          markScheme: clean(draft.markScheme),
          markSchemePoints: draft.markSchemePoints.map(clean).filter((point) => point.length > 0),
        };
        checkText(`${label}.question`, question.question, problems);
        checkText(`${label}.markScheme`, question.markScheme, problems);
        question.markSchemePoints.forEach((point, pointIndex) =>
          checkText(`${label}.markSchemePoints[${pointIndex}]`, point, problems),
        );
        if (!Number.isInteger(question.marks) || question.marks < 1 || question.marks > 20)
          problems.push(`${label}.marks must be a whole number from 1 to 20`);
        if (question.markSchemePoints.length === 0) problems.push(`${label}.markSchemePoints is empty`);
        noteDuplicate(label, question.question);
        questions.push(question);
      });
    } else {
      if (drafts.multipleChoice.length < count)
        problems.push(`expected ${count} multiple_choice questions, got ${drafts.multipleChoice.length}`);
      drafts.multipleChoice.slice(0, count).forEach((draft, index) => {
        const label = `multipleChoice[${index}]`;
        const options = draft.options.map(clean);
        const correct = clean(draft.correctAnswer);
        let correctOptionIndex = options.indexOf(correct);
        if (correctOptionIndex < 0)
          correctOptionIndex = options.findIndex((option) => option.toLowerCase() === correct.toLowerCase());
        const question: MultipleChoiceQuestion = {
          type: "multiple_choice",
          question: clean(draft.question),
          options,
          correctAnswer: options[correctOptionIndex] ?? correct,
          correctOptionIndex,
          explanation: clean(draft.explanation),
          markScheme: clean(draft.markScheme),
          markSchemePoints: draft.markSchemePoints.map(clean).filter((point) => point.length > 0),
        };
        checkText(`${label}.question`, question.question, problems);
        checkText(`${label}.explanation`, question.explanation, problems);
        checkText(`${label}.markScheme`, question.markScheme, problems);
        options.forEach((option, optionIndex) =>
          checkText(`${label}.options[${optionIndex}]`, option, problems),
        );
        if (options.length !== 4)
          problems.push(`${label} must have exactly 4 options, has ${options.length}`);
        if (new Set(options.map((option) => option.toLowerCase())).size !== options.length)
          problems.push(`${label} has repeated options`);
        if (correctOptionIndex < 0) problems.push(`${label}.correctAnswer is not one of its options`);
        if (question.markSchemePoints.length === 0) problems.push(`${label}.markSchemePoints is empty`);
        noteDuplicate(label, question.question);
        questions.push(question);
      });
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, questions };
}

/** The invariants of a finished set, for tests and defensive checks. */
export function questionSetProblems(
  questions: readonly Question[],
  plan: readonly { type: QuestionType; count: number }[],
): string[] {
  const result = finaliseQuestionSet(
    {
      written: questions.filter((question): question is WrittenQuestion => question.type === "written"),
      multipleChoice: questions.filter(
        (question): question is MultipleChoiceQuestion => question.type === "multiple_choice",
      ),
    },
    plan,
  );
  if (!result.ok) return result.problems;
  const problems: string[] = [];
  questions.forEach((question, index) => {
    if (
      question.type === "multiple_choice" &&
      question.options[question.correctOptionIndex] !== question.correctAnswer
    ) {
      problems.push(`questions[${index}].correctOptionIndex does not point at correctAnswer`);
    }
  });
  const order = questions.map((question) => question.type);
  const expected = plan.flatMap(({ type, count }) => Array.from({ length: count }, () => type));
  if (order.join() !== expected.join())
    problems.push("questions are not grouped by type in the requested order");
  return problems;
}
