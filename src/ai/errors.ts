import { APICallError, RetryError } from "ai";

/**
 * The model provider failed, timed out or kept returning unusable output. The HTTP layer answers
 * 503 `model_unavailable` (or an NDJSON `error` event once streaming began) and charges nothing.
 */
export class ModelUnavailableError extends Error {
  override readonly name = "ModelUnavailableError";
  /** Whether trying the same request again later could succeed (timeouts, 429, 5xx: yes; 400/401: no). */
  readonly retryable: boolean;
  readonly reason: ModelFailureReason;

  constructor(message: string, options: { retryable: boolean; reason: ModelFailureReason; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.retryable = options.retryable;
    this.reason = options.reason;
  }
}

export type ModelFailureReason =
  | "first_token_timeout"
  | "total_timeout"
  | "provider_error"
  | "stream_interrupted"
  | "empty_response"
  | "invalid_output";

/** Per-call time limits; a model that stalls must not hold a paid request open indefinitely. */
export interface ModelTimeouts {
  /** From the request until the first text arrives. */
  firstTokenMs: number;
  /** From the request until the reply is complete. */
  totalMs: number;
}

export const defaultModelTimeouts: ModelTimeouts = { firstTokenMs: 15_000, totalMs: 60_000 };

/** Translates whatever the AI SDK or the network threw into our one typed upstream error. */
export function toModelUnavailable(
  error: unknown,
  fallbackReason: ModelFailureReason = "provider_error",
): ModelUnavailableError {
  if (error instanceof ModelUnavailableError) return error;
  if (RetryError.isInstance(error)) return toModelUnavailable(error.lastError, fallbackReason);
  if (APICallError.isInstance(error)) {
    return new ModelUnavailableError(`model provider answered ${error.statusCode ?? "without a status"}`, {
      retryable: error.isRetryable,
      reason: "provider_error",
      cause: error,
    });
  }
  // Network resets, stream parse failures and the like: a later attempt may well succeed.
  return new ModelUnavailableError("model provider failed", {
    retryable: true,
    reason: fallbackReason,
    cause: error,
  });
}

/**
 * One AbortController per model call that fires on the caller's signal, the first-token deadline or the
 * total deadline, and remembers which so the failure can be reported precisely.
 */
export class CallDeadline {
  readonly controller = new AbortController();
  private timedOut: "first_token_timeout" | "total_timeout" | null = null;
  private firstTokenTimer: NodeJS.Timeout | undefined;
  private readonly totalTimer: NodeJS.Timeout;
  private readonly onCallerAbort: () => void;

  constructor(
    private readonly callerSignal: AbortSignal,
    timeouts: ModelTimeouts,
    options: { awaitFirstToken: boolean },
  ) {
    this.onCallerAbort = () => this.controller.abort(callerSignal.reason);
    if (callerSignal.aborted) this.controller.abort(callerSignal.reason);
    else callerSignal.addEventListener("abort", this.onCallerAbort, { once: true });
    this.totalTimer = setTimeout(() => this.expire("total_timeout"), timeouts.totalMs);
    if (options.awaitFirstToken) {
      this.firstTokenTimer = setTimeout(() => this.expire("first_token_timeout"), timeouts.firstTokenMs);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get callerAborted(): boolean {
    return this.callerSignal.aborted;
  }

  firstTokenArrived(): void {
    clearTimeout(this.firstTokenTimer);
    this.firstTokenTimer = undefined;
  }

  /** The error to raise now that the call ended early, or null when it was not a deadline. */
  timeoutError(): ModelUnavailableError | null {
    if (this.timedOut === null) return null;
    const what = this.timedOut === "first_token_timeout" ? "no reply started" : "the reply did not finish";
    return new ModelUnavailableError(`model timed out: ${what} in time`, {
      retryable: true,
      reason: this.timedOut,
    });
  }

  /** Stops the timers and, if the consumer left early, the upstream request too. */
  dispose(): void {
    if (!this.controller.signal.aborted) this.controller.abort(new Error("call finished"));
    clearTimeout(this.firstTokenTimer);
    clearTimeout(this.totalTimer);
    this.callerSignal.removeEventListener("abort", this.onCallerAbort);
  }

  private expire(reason: "first_token_timeout" | "total_timeout"): void {
    if (this.controller.signal.aborted) return;
    this.timedOut = reason;
    this.controller.abort(new Error(reason));
  }
}
