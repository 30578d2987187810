import { streamText, type LanguageModel } from "ai";
import {
  CallDeadline,
  defaultModelTimeouts,
  ModelUnavailableError,
  toModelUnavailable,
  type ModelTimeouts,
} from "../ai/errors.ts";
import type { TutorEngine, TutorRequest, TutorStreamPart } from "./engine.ts";
import { buildSystemPrompt } from "./prompt.ts";
import { estimateTokens } from "./text.ts";

export interface ModelTutorOptions {
  languageModel: Exclude<LanguageModel, string>;
  modelName: string;
  timeouts?: ModelTimeouts;
  /** AI SDK retries before the first token; keep low, a chat request should fail fast. */
  maxRetries?: number;
  maxOutputTokens?: number;
}

/** The tutor backed by a language model through the AI SDK. */
export function createModelTutor(options: ModelTutorOptions): TutorEngine {
  const timeouts = options.timeouts ?? defaultModelTimeouts;
  return {
    model: options.modelName,
    async *streamReply(request: TutorRequest, signal: AbortSignal): AsyncIterable<TutorStreamPart> {
      signal.throwIfAborted();
      const system = buildSystemPrompt(request);
      const deadline = new CallDeadline(signal, timeouts, { awaitFirstToken: true });
      let outputText = "";
      try {
        const result = streamText({
          model: options.languageModel,
          system,
          messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
          abortSignal: deadline.signal,
          maxRetries: options.maxRetries ?? 1,
          maxOutputTokens: options.maxOutputTokens ?? 1_200,
          temperature: 0.4,
          // Errors arrive as `error` parts below; without this the SDK would also log them.
          onError: () => {},
        });
        let finished: { inputTokens: number; outputTokens: number } | null = null;
        for await (const part of result.fullStream) {
          if (part.type === "text-delta") {
            if (part.text.length === 0) continue;
            deadline.firstTokenArrived();
            outputText += part.text;
            yield { type: "text", text: part.text };
          } else if (part.type === "error") {
            throw (
              deadline.timeoutError() ??
              callerAbort(deadline, signal) ??
              toModelUnavailable(part.error, outputText ? "stream_interrupted" : "provider_error")
            );
          } else if (part.type === "abort") {
            throw (
              deadline.timeoutError() ??
              callerAbort(deadline, signal) ??
              new ModelUnavailableError("model stream aborted", {
                retryable: true,
                reason: "stream_interrupted",
              })
            );
          } else if (part.type === "finish") {
            if (part.finishReason === "error") {
              throw new ModelUnavailableError("model stream ended with an error", {
                retryable: true,
                reason: "stream_interrupted",
              });
            }
            finished = {
              // Servers that report no usage get the same estimate the offline tutor uses.
              inputTokens:
                part.totalUsage.inputTokens ??
                estimateTokens(system + request.messages.map((message) => message.content).join("\n")),
              outputTokens: part.totalUsage.outputTokens ?? estimateTokens(outputText),
            };
          }
        }
        if (outputText.trim().length === 0) {
          throw (
            deadline.timeoutError() ??
            callerAbort(deadline, signal) ??
            new ModelUnavailableError("model returned an empty reply", {
              retryable: true,
              reason: "empty_response",
            })
          );
        }
        if (!finished) {
          throw (
            deadline.timeoutError() ??
            callerAbort(deadline, signal) ??
            new ModelUnavailableError("model stream ended early", {
              retryable: true,
              reason: "stream_interrupted",
            })
          );
        }
        yield { type: "finish", ...finished };
      } catch (error) {
        const aborted = callerAbort(deadline, signal);
        if (aborted) throw aborted;
        throw (
          deadline.timeoutError() ??
          toModelUnavailable(error, outputText ? "stream_interrupted" : "provider_error")
        );
      } finally {
        deadline.dispose();
      }
    },
  };
}

/** The caller's own abort is not a provider failure: it propagates as the signal's reason. */
function callerAbort(deadline: CallDeadline, signal: AbortSignal): unknown {
  return deadline.callerAborted ? (signal.reason ?? new Error("aborted")) : null;
}
