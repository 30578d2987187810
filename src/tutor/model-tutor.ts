import { APICallError, type LanguageModel } from "ai";
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

/** The provider-level model every configured provider builds (AI SDK language model specification v3). */
type StreamingModel = Extract<LanguageModel, { specificationVersion: "v3" }>;
type ModelPrompt = Parameters<StreamingModel["doStream"]>[0]["prompt"];
type ModelStream = Awaited<ReturnType<StreamingModel["doStream"]>>["stream"];

export interface ModelTutorOptions {
  languageModel: Exclude<LanguageModel, string>;
  modelName: string;
  timeouts?: ModelTimeouts;
  /** Retries of a retryable provider answer (429, 5xx, network) before the reply starts; keep low. */
  maxRetries?: number;
  maxOutputTokens?: number;
}

/**
 * The tutor backed by a language model. It reads the provider's own stream (`doStream`) part by part instead of
 * going through `streamText`: `streamText` reads the whole provider stream into memory as fast as it arrives
 * (and keeps a copy of it), so a caller that stops reading would not stop the model response being read. Read
 * this way, the model response is only read as fast as the caller takes parts, and TCP holds the provider back.
 */
export function createModelTutor(options: ModelTutorOptions): TutorEngine {
  const model = options.languageModel;
  if (model.specificationVersion !== "v3")
    throw new Error(`the model tutor needs an AI SDK v3 language model (got ${model.specificationVersion})`);
  const timeouts = options.timeouts ?? defaultModelTimeouts;
  const maxRetries = options.maxRetries ?? 1;
  return {
    model: options.modelName,
    async *streamReply(request: TutorRequest, signal: AbortSignal): AsyncIterable<TutorStreamPart> {
      signal.throwIfAborted();
      const system = buildSystemPrompt(request);
      const prompt: ModelPrompt = [
        { role: "system", content: system },
        ...request.messages.map((message) => ({
          role: message.role,
          content: [{ type: "text" as const, text: message.content }],
        })),
      ];
      const deadline = new CallDeadline(signal, timeouts, { awaitFirstToken: true });
      let reader: ReturnType<ModelStream["getReader"]> | undefined;
      let outputCharacters = 0;
      let visibleText = false;
      try {
        const { stream } = await withRetries(maxRetries, deadline.signal, () =>
          model.doStream({
            prompt,
            maxOutputTokens: options.maxOutputTokens ?? 1_200,
            temperature: 0.4,
            abortSignal: deadline.signal,
          }),
        );
        reader = stream.getReader();
        let finished: { inputTokens: number; outputTokens: number } | null = null;
        for (;;) {
          const { done, value: part } = await reader.read();
          if (done) break;
          if (part.type === "text-delta") {
            if (part.delta.length === 0) continue;
            deadline.firstTokenArrived();
            outputCharacters += part.delta.length;
            visibleText ||= part.delta.trim().length > 0;
            yield { type: "text", text: part.delta };
          } else if (part.type === "error") {
            throw (
              deadline.timeoutError() ??
              callerAbort(deadline, signal) ??
              toModelUnavailable(part.error, outputCharacters > 0 ? "stream_interrupted" : "provider_error")
            );
          } else if (part.type === "finish") {
            if (part.finishReason.unified === "error") {
              throw new ModelUnavailableError("model stream ended with an error", {
                retryable: true,
                reason: "stream_interrupted",
              });
            }
            finished = {
              // Servers that report no usage get the same estimate the offline tutor uses.
              inputTokens:
                part.usage.inputTokens.total ??
                estimateTokens(system + request.messages.map((message) => message.content).join("\n")),
              outputTokens: part.usage.outputTokens.total ?? Math.ceil(outputCharacters / 4),
            };
          }
        }
        if (!visibleText) {
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
          toModelUnavailable(error, outputCharacters > 0 ? "stream_interrupted" : "provider_error")
        );
      } finally {
        // Aborting first ends the provider request if the consumer left early; cancelling frees the stream.
        deadline.dispose();
        reader?.cancel().catch(() => {});
      }
    },
  };
}

/**
 * Starts the call again after a provider answer that says a retry can help (429, 5xx, a network failure), at
 * most `maxRetries` times: after the provider's `retry-after` when it gives one under a minute, else 2 s, 4 s….
 */
async function withRetries<T>(
  maxRetries: number,
  signal: AbortSignal,
  call: () => PromiseLike<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= maxRetries || !APICallError.isInstance(error) || !error.isRetryable || signal.aborted)
        throw error;
      await abortableDelay(retryDelayMs(error, 2_000 * 2 ** attempt), signal);
    }
  }
}

function retryDelayMs(error: APICallError, backoffMs: number): number {
  const headers = error.responseHeaders ?? {};
  const milliseconds = headers["retry-after-ms"]
    ? Number.parseFloat(headers["retry-after-ms"])
    : headers["retry-after"]
      ? Number.parseFloat(headers["retry-after"]) * 1000
      : Number.NaN;
  return Number.isFinite(milliseconds) && milliseconds >= 0 && milliseconds < 60_000
    ? milliseconds
    : backoffMs;
}

function abortableDelay(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The caller's own abort is not a provider failure: it propagates as the signal's reason. */
function callerAbort(deadline: CallDeadline, signal: AbortSignal): unknown {
  return deadline.callerAborted ? (signal.reason ?? new Error("aborted")) : null;
}
