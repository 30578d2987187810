import { ModelUnavailableError } from "../ai/errors.ts";
import { ApiError } from "../http/errors.ts";

/** A provider failure is 503 model_unavailable (never charged); anything else stays as it was. */
export function toApiErrorFromModel(error: unknown): unknown {
  if (error instanceof ModelUnavailableError) {
    return new ApiError("model_unavailable", { headers: error.retryable ? { "Retry-After": "5" } : {} });
  }
  return error;
}
