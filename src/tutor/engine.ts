import type { ModelTimeouts } from "../ai/errors.ts";
import type { ModelSetup } from "../ai/provider.ts";
import type { CatalogueSnapshot, Subject } from "../catalogue/model.ts";
import type { KnowledgeNotes } from "../catalogue/source-schema.ts";
import type { ChatMessage, CustomGenie, TeachingStyle } from "./messages.ts";
import { createModelTutor } from "./model-tutor.ts";
import { createOfflineTutor } from "./offline-tutor.ts";

export { ModelUnavailableError } from "../ai/errors.ts";

/** Which tutor answers: a subject genie, the general tutor, or a caller-defined custom genie. */
export type TutorSelection =
  | { kind: "genie"; subject: Subject }
  | { kind: "general" }
  | {
      kind: "custom";
      genie: CustomGenie;
      /**
       * The custom block already rendered as fenced, hardened preferences (safeguarding's
       * `hardenCustomInstructions`). The model tutor places it verbatim; without it only the name, subject
       * and style are used and the free-text instructions are left out.
       */
      fencedPreferences?: string;
    };

/** A knowledge note chosen for a conversation, with where it sits in the curriculum. */
export interface RetrievedNote {
  /** Subtopic id for catalogue notes; `study-skills.<slug>` for the general tutor's study-skills notes. */
  id: string;
  source: "catalogue" | "study-skills";
  title: string;
  topicName: string | null;
  subject: { id: string; name: string; qualification: string; examBoard: string } | null;
  notes: KnowledgeNotes;
  /** Relevance, higher is better; comparable only within one retrieval. */
  score: number;
}

export interface TutorRequest {
  messages: ChatMessage[];
  tutor: TutorSelection;
  teachingStyle: TeachingStyle;
  context: RetrievedNote[];
}

export type TutorStreamPart =
  { type: "text"; text: string } | { type: "finish"; inputTokens: number; outputTokens: number };

/**
 * Produces one assistant reply as a stream: one or more `text` parts, then exactly one `finish`.
 * Provider failures and timeouts throw `ModelUnavailableError`; an abort by the caller ends the stream with
 * the signal's reason.
 */
export interface TutorEngine {
  readonly model: string;
  streamReply(request: TutorRequest, signal: AbortSignal): AsyncIterable<TutorStreamPart>;
}

/** Collects a whole reply, for `stream: false`. */
export async function collectReply(
  engine: TutorEngine,
  request: TutorRequest,
  signal: AbortSignal,
): Promise<{ text: string; inputTokens: number; outputTokens: number }> {
  let text = "";
  let inputTokens = 0;
  let outputTokens = 0;
  for await (const part of engine.streamReply(request, signal)) {
    if (part.type === "text") text += part.text;
    else ({ inputTokens, outputTokens } = part);
  }
  return { text, inputTokens, outputTokens };
}

/** The offline tutor unless a model provider is configured. */
export function createTutorEngine(options: {
  setup: ModelSetup;
  catalogue: CatalogueSnapshot;
  timeouts?: ModelTimeouts;
  maxRetries?: number;
}): TutorEngine {
  const { setup } = options;
  if (setup.kind === "offline") return createOfflineTutor({ catalogue: options.catalogue });
  return createModelTutor({
    languageModel: setup.languageModel,
    modelName: setup.modelName,
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
  });
}
