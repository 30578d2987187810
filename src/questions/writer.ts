import type { ModelTimeouts } from "../ai/errors.ts";
import type { ModelSetup } from "../ai/provider.ts";
import type { CatalogueSnapshot } from "../catalogue/model.ts";
import type { QuestionWriter } from "./model.ts";
import { createModelQuestionWriter } from "./model-writer.ts";
import { createOfflineQuestionWriter } from "./offline-writer.ts";

export type {
  Question,
  QuestionSetRequest,
  QuestionSetResult,
  QuestionSource,
  QuestionType,
  QuestionWriter,
} from "./model.ts";
export { splitQuestionCount } from "./model.ts";

/** The offline writer unless a model provider is configured. */
export function createQuestionWriter(options: {
  setup: ModelSetup;
  catalogue: CatalogueSnapshot;
  timeouts?: ModelTimeouts;
  maxRetries?: number;
}): QuestionWriter {
  const { setup, catalogue } = options;
  if (setup.kind === "offline") return createOfflineQuestionWriter({ catalogue });
  return createModelQuestionWriter({
    languageModel: setup.languageModel,
    modelName: setup.modelName,
    catalogue,
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
  });
}
