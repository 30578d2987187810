import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModel, LanguageModel } from "ai";

export const aiProviderNames = ["offline", "openai", "anthropic", "openai-compatible"] as const;
export type AiProviderName = (typeof aiProviderNames)[number];

/** What the composition root passes in (from AI_PROVIDER, AI_MODEL, AI_BASE_URL, AI_API_KEY, AI_EMBEDDING_MODEL). */
export interface AiConfig {
  provider: AiProviderName;
  model?: string;
  /** Required for openai-compatible (Ollama, vLLM, llama.cpp server: e.g. http://127.0.0.1:11434/v1). */
  baseUrl?: string;
  apiKey?: string;
  embeddingModel?: string;
}

export type ModelSetup =
  | { kind: "offline" }
  | {
      kind: "model";
      provider: Exclude<AiProviderName, "offline">;
      /** The model id reported to API callers, e.g. in the chat `start` event. */
      modelName: string;
      languageModel: Exclude<LanguageModel, string>;
      embeddingModel: Exclude<EmbeddingModel, string> | null;
    };

export class AiConfigError extends Error {
  override readonly name = "AiConfigError";
}

/** Builds the AI SDK models for the configured provider. Reads no environment: everything comes from `config`. */
export function createModelSetup(config: AiConfig): ModelSetup {
  if (config.provider === "offline") return { kind: "offline" };
  const modelName = config.model?.trim();
  if (!modelName)
    throw new AiConfigError(`AI model name is required when the provider is ${config.provider}`);
  const embeddingName = config.embeddingModel?.trim() || null;

  switch (config.provider) {
    case "openai": {
      const openai = createOpenAI({
        apiKey: config.apiKey,
        ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
      });
      return {
        kind: "model",
        provider: "openai",
        modelName,
        languageModel: openai.languageModel(modelName),
        embeddingModel: embeddingName ? openai.embeddingModel(embeddingName) : null,
      };
    }
    case "anthropic": {
      if (embeddingName)
        throw new AiConfigError("Anthropic offers no embedding models; leave the embedding model unset");
      const anthropic = createAnthropic({
        apiKey: config.apiKey,
        ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
      });
      return {
        kind: "model",
        provider: "anthropic",
        modelName,
        languageModel: anthropic.languageModel(modelName),
        embeddingModel: null,
      };
    }
    case "openai-compatible": {
      if (!config.baseUrl)
        throw new AiConfigError("a base URL is required when the provider is openai-compatible");
      const compatible = createOpenAICompatible({
        name: "openai-compatible",
        baseURL: config.baseUrl.replace(/\/+$/, ""),
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
        // Usage in the final stream chunk gives real token counts; servers that ignore the option are unaffected.
        includeUsage: true,
        // Ollama, vLLM and llama.cpp all accept response_format json_schema; it keeps question sets well formed.
        supportsStructuredOutputs: true,
      });
      return {
        kind: "model",
        provider: "openai-compatible",
        modelName,
        languageModel: compatible.languageModel(modelName),
        embeddingModel: embeddingName ? compatible.embeddingModel(embeddingName) : null,
      };
    }
  }
}
